/// The square crops tried on a photo: the cover rarely fills the frame exactly, so the photo is
/// hashed at several scales and offsets and the best-matching crop decides.
public struct CropSearch: Sendable {
    /// Crop sides as fractions of the photo's shorter side.
    public let scales: [Double]
    /// Centre offsets as fractions of the shorter side (applied on both axes).
    public let offsets: [Double]

    /// Squares run out of the frame on one side (see `EdgeSearch`).
    public let edges: EdgeSearch

    public init(scales: [Double], offsets: [Double], edges: EdgeSearch = .standard) {
        self.scales = scales
        self.offsets = offsets
        self.edges = edges
    }

    /// 0.64–1.0 in steps of 0.06, offsets ±6 % in steps of 3 % (docs/decisions/0007-tier-0-local-match.md).
    public static let standard = CropSearch(
        scales: [0.64, 0.70, 0.76, 0.82, 0.88, 0.94, 1.0],
        offsets: [-0.06, -0.03, 0, 0.03, 0.06])
}

/// Squares that run out of the frame on one side, for a cover the frame cut: centred squares
/// never reach the frame's edge, and a cut cover's outline may have no edge to find (a grey cover
/// on a grey table), so these do not depend on `QuadFinder`. The part outside repeats the
/// frame's last pixels; at 5–15 % of the cover cut off the hash still comes within 50–76 bits of
/// the cover (decision 0039, fourth round).
public struct EdgeSearch: Sendable {
    /// Square sides as fractions of the photo's shorter side.
    public let scales: [Double]
    /// How much of the square lies outside the frame (fraction of its side).
    public let depths: [Double]
    /// Offsets along the edge from centred, as fractions of the shorter side.
    public let offsets: [Double]

    public init(scales: [Double], depths: [Double], offsets: [Double]) {
        self.scales = scales
        self.depths = depths
        self.offsets = offsets
    }

    /// The crop search's scale step (0.06) over the sizes a cut cover still fills the frame with,
    /// two depths, three places along each of the four edges: 96 squares.
    public static let standard = EdgeSearch(scales: [0.70, 0.76, 0.82, 0.88], depths: [0.06, 0.12],
                                            offsets: [-0.06, 0, 0.06])
    public static let none = EdgeSearch(scales: [], depths: [], offsets: [])

    /// The squares along frame edge `edge` (0 left, 1 right, 2 top, 3 bottom) of a `width` ×
    /// `height` upright photo, in display pixels.
    func squares(edge: Int, width: Double, height: Double) -> [(x: Double, y: Double, side: Double)] {
        let short = min(width, height)
        var out: [(x: Double, y: Double, side: Double)] = []
        for scale in scales {
            let side = scale * short
            for depth in depths {
                for offset in offsets {
                    var x = (width - side) / 2 + offset * short, y = (height - side) / 2 + offset * short
                    switch edge {
                    case 0: x = -depth * side
                    case 1: x = width - side + depth * side
                    case 2: y = -depth * side
                    default: y = height - side + depth * side
                    }
                    // Out of the frame on its own edge only: along the edge it stays inside.
                    let inside = edge < 2 ? (y >= -1 && y + side <= height + 1) : (x >= -1 && x + side <= width + 1)
                    if inside { out.append((x, y, side)) }
                }
            }
        }
        return out
    }
}

/// Hashes of one photo: a 256-bit hash per crop and rotation, plus 64-bit hashes of the centre square.
public struct PhotoHashes: Sendable {
    public let candidates: [Hash256]
    public let pHash: UInt64
    public let dHash: UInt64
    /// Where the crop-search candidates were taken: `candidates[4 * i ..< 4 * i + 4]` (the four
    /// rotations) come from `cropSquares[i]`.
    public let cropSquares: [CropSquare]
    /// Where the outline candidates after them were taken: `candidates[4 * (cropSquares.count + i)
    /// ..< … + 4]` come from `outlines[i]` (a cover's outline seen turned or in perspective, then
    /// the squares run out of the frame, `EdgeSearch`).
    public let outlines: [CropOutline]
    /// How many of `outlines`, at its end, are squares run out of the frame (`EdgeSearch`).
    public let edgeSquareCount: Int

    /// Hashes computed elsewhere (tests, tools).
    public init(candidates: [Hash256], pHash: UInt64, dHash: UInt64, cropSquares: [CropSquare] = [],
                outlines: [CropOutline] = [], edgeSquareCount: Int = 0) {
        self.candidates = candidates
        self.pHash = pHash
        self.dHash = dHash
        self.cropSquares = cropSquares
        self.outlines = outlines
        self.edgeSquareCount = edgeSquareCount
    }

    /// The best distance to `target` over the crop squares and cover outlines, without the edge
    /// squares: the hash's strict gate was calibrated without them, and a flat cover lying partly
    /// under an unknown one can come near through a square half outside the frame.
    public func gateDistance(to target: Hash256) -> Int {
        var best = 256
        for candidate in candidates.dropLast(4 * edgeSquareCount) { best = min(best, candidate.distance(to: target)) }
        return best
    }

    /// Where the hash came nearest `target`: a crop square, or a cover outline when one of those
    /// came strictly nearer (a turned cover's outline undoes the turn the squares cannot).
    public func nearestStart(to target: Hash256) -> CropOutline? {
        var best: (distance: Int, start: CropOutline)?
        let regions = cropSquares.map(CropOutline.init(square:)) + outlines
        for (i, region) in regions.enumerated() where 4 * i + 3 < candidates.count {
            for candidate in candidates[(4 * i)..<(4 * i + 4)] {
                let d = candidate.distance(to: target)
                if d < best?.distance ?? Int.max { best = (d, region) }
            }
        }
        return best?.start
    }

    /// The crop square whose hashes come nearest `target`, if any crop-search hash exists.
    public func nearestSquare(to target: Hash256) -> CropSquare? {
        var best: (distance: Int, square: CropSquare)?
        for (i, square) in cropSquares.enumerated() where 4 * i + 3 < candidates.count {
            for candidate in candidates[(4 * i)..<(4 * i + 4)] {
                let d = candidate.distance(to: target)
                if d < best?.distance ?? Int.max { best = (d, square) }
            }
        }
        return best?.square
    }
}

/// A square of the upright photo, in fractions of the photo's centre square (the square the
/// vision provider gets): origin and side, 0…1 for a crop inside it.
public struct CropSquare: Equatable, Sendable {
    public let x: Double
    public let y: Double
    public let side: Double

    public init(x: Double, y: Double, side: Double) {
        self.x = x
        self.y = y
        self.side = side
    }
}

/// A quadrilateral of the upright photo where a cover may be, corners clockwise from the one
/// nearest the top-left, in the same fractions as `CropSquare`: x0, y0, x1, y1, x2, y2, x3, y3.
public struct CropOutline: Equatable, Sendable {
    public let points: [Double]

    public init(points: [Double]) {
        self.points = points
    }

    public init(square: CropSquare) {
        let x = square.x, y = square.y, s = square.side
        points = [x, y, x + s, y, x + s, y + s, x, y + s]
    }

    /// `quad` (stored pixels of a `width` × `height` image) in display orientation, relative to
    /// the square at (`x`, `y`) of side `side` (display pixels), ordered clockwise from top-left.
    init(_ quad: Quad, orientation: ExifOrientation, width: Double, height: Double, x: Double, y: Double, side: Double) {
        var p = quad.corners.map { orientation.displayPoint(x: $0.x, y: $0.y, width: width, height: height) }
        // A mirroring orientation reverses the turning sense.
        var area = 0.0
        for i in 0..<4 { area += p[i].0 * p[(i + 1) % 4].1 - p[(i + 1) % 4].0 * p[i].1 }
        if area < 0 { p.reverse() }
        let first = (0..<4).min { p[$0].0 + p[$0].1 < p[$1].0 + p[$1].1 }!
        points = (0..<4).flatMap { k -> [Double] in
            let q = p[(first + k) % 4]
            return [(q.0 - x) / side, (q.1 - y) / side]
        }
    }
}

/// Entry points for hashing covers and photos.
public enum CoverHashing {
    /// Hashes of cover artwork (already square, upright): the whole image.
    public static func coverHash(of image: RGBImage) -> CoverHash {
        let integral = IntegralImage(image)
        let hasher = PerceptualHasher()
        // Artwork is nearly always square; a non-square one is judged by its centre square.
        let side = Double(min(image.width, image.height))
        let x = (Double(image.width) - side) / 2, y = (Double(image.height) - side) / 2
        return CoverHash(
            pHash: hasher.pHash64(of: integral, x: x, y: y, side: side, orientation: .up),
            dHash: hasher.dHash64(of: integral, x: x, y: y, side: side, orientation: .up),
            dct256: hasher.dct256(of: integral, x: x, y: y, side: side))
    }

    /// Hashes of a photo given its stored pixels and EXIF orientation (crops are chosen upright).
    /// The crop search is the fallback; the cover's own outline, when `QuadFinder` sees one, adds
    /// candidates that undo rotation and perspective. The best distance over all of them decides.
    public static func photoHashes(of stored: RGBImage, orientation: ExifOrientation,
                                   search: CropSearch = .standard) -> PhotoHashes {
        let integral = IntegralImage(stored)
        let base = photoHashes(of: integral, orientation: orientation, search: search)
        let quads = QuadFinder.find(in: stored)
        let extra = quadHashes(quads, integral: integral, orientation: orientation)
        let w = Double(stored.width), h = Double(stored.height)
        let ow = orientation.swapsDimensions ? h : w, oh = orientation.swapsDimensions ? w : h
        let short = min(ow, oh)
        let regions = outlines(quads, orientation: orientation, width: w, height: h,
                               x: (ow - short) / 2, y: (oh - short) / 2, side: short)
        let edges = (0..<4).flatMap { edgeCandidates(of: integral, orientation: orientation, edge: $0, search: search.edges) }
        let edgeRegions = edgeSquares(width: stored.width, height: stored.height, orientation: orientation,
                                      search: search.edges).map(CropOutline.init(square:))
        return PhotoHashes(candidates: base.candidates + extra + edges, pHash: base.pHash, dHash: base.dHash,
                           cropSquares: base.cropSquares, outlines: regions + edgeRegions, edgeSquareCount: edgeRegions.count)
    }

    /// Where `quadHashes` hashed, in its order (one outline per quad and inset).
    static func outlines(_ quads: [Quad], orientation: ExifOrientation, width: Double, height: Double,
                         x: Double, y: Double, side: Double) -> [CropOutline] {
        quads.flatMap { quad in
            quadInsets.map { CropOutline(quad.inset($0), orientation: orientation, width: width, height: height, x: x, y: y, side: side) }
        }
    }

    /// Hashes (4 rotations, each inset) of every quad `QuadFinder` finds; empty if it finds none.
    static func quadHashes(_ quads: [Quad], integral: IntegralImage, orientation: ExifOrientation) -> [Hash256] {
        let hasher = PerceptualHasher()
        var hashes: [Hash256] = []
        for quad in quads {
            for inset in quadInsets {
                hashes += hasher.dct256Rotations(of: integral, quad: quad.inset(inset), orientation: orientation)
            }
        }
        return hashes
    }

    /// The detected outline and one slightly inside it: a printed border or a sleeve's shadow can
    /// put the strongest edge a little outside the artwork.
    static let quadInsets: [Double] = [0, 0.03]

    static func photoHashes(of integral: IntegralImage, orientation: ExifOrientation, search: CropSearch) -> PhotoHashes {
        var candidates: [Hash256] = []
        var squares: [CropSquare] = []
        for scale in search.scales {
            candidates += cropCandidates(of: integral, orientation: orientation, scale: scale, offsets: search.offsets)
            squares += cropSquares(width: integral.width, height: integral.height, orientation: orientation, scale: scale,
                                   offsets: search.offsets)
        }
        let centre = centreHashes(of: integral, orientation: orientation)
        return PhotoHashes(candidates: candidates, pHash: centre.pHash, dHash: centre.dHash, cropSquares: squares)
    }

    /// The 256-bit hashes (4 rotations each) of the crops of one scale: independent of the
    /// other scales, so the search can be spread over threads.
    static func cropCandidates(of integral: IntegralImage, orientation: ExifOrientation, scale: Double,
                               offsets: [Double]) -> [Hash256] {
        let sw = Double(integral.width), sh = Double(integral.height)
        let ow = orientation.swapsDimensions ? sh : sw
        let oh = orientation.swapsDimensions ? sw : sh
        let short = min(ow, oh)
        let hasher = PerceptualHasher()
        var candidates: [Hash256] = []
        candidates.reserveCapacity(offsets.count * offsets.count * 4)
        let side = short * scale
        for dy in offsets {
            for dx in offsets {
                let x = (ow - side) / 2 + dx * short
                let y = (oh - side) / 2 + dy * short
                // A crop leaving the photo by more than a pixel would hash the border.
                guard x >= -1, y >= -1, x + side <= ow + 1, y + side <= oh + 1 else { continue }
                let stored = storedSquare(x: x, y: y, side: side, orientation: orientation, width: sw, height: sh)
                candidates += hasher.dct256Rotations(of: integral, x: stored.x, y: stored.y, side: side,
                                                     orientation: orientation)
            }
        }
        return candidates
    }

    /// The 256-bit hashes (4 rotations each) of `search`'s squares along frame edge `edge`.
    static func edgeCandidates(of integral: IntegralImage, orientation: ExifOrientation, edge: Int,
                               search: EdgeSearch) -> [Hash256] {
        let sw = Double(integral.width), sh = Double(integral.height)
        let ow = orientation.swapsDimensions ? sh : sw, oh = orientation.swapsDimensions ? sw : sh
        let hasher = PerceptualHasher()
        return search.squares(edge: edge, width: ow, height: oh).flatMap { square in
            let stored = storedSquare(x: square.x, y: square.y, side: square.side, orientation: orientation, width: sw, height: sh)
            return hasher.dct256Rotations(of: integral, x: stored.x, y: stored.y, side: square.side, orientation: orientation)
        }
    }

    /// The squares `edgeCandidates` hashes for edges 0…3, in order, as fractions of the centre square.
    static func edgeSquares(width: Int, height: Int, orientation: ExifOrientation, search: EdgeSearch) -> [CropSquare] {
        let sw = Double(width), sh = Double(height)
        let ow = orientation.swapsDimensions ? sh : sw, oh = orientation.swapsDimensions ? sw : sh
        let short = min(ow, oh)
        return (0..<4).flatMap { edge in
            search.squares(edge: edge, width: ow, height: oh).map {
                CropSquare(x: ($0.x - (ow - short) / 2) / short, y: ($0.y - (oh - short) / 2) / short, side: $0.side / short)
            }
        }
    }

    /// The squares `cropCandidates` hashes, in the same order, as fractions of the centre square.
    static func cropSquares(width: Int, height: Int, orientation: ExifOrientation, scale: Double,
                            offsets: [Double]) -> [CropSquare] {
        let sw = Double(width), sh = Double(height)
        let ow = orientation.swapsDimensions ? sh : sw
        let oh = orientation.swapsDimensions ? sw : sh
        let short = min(ow, oh)
        let side = short * scale
        var squares: [CropSquare] = []
        for dy in offsets {
            for dx in offsets {
                let x = (ow - side) / 2 + dx * short
                let y = (oh - side) / 2 + dy * short
                guard x >= -1, y >= -1, x + side <= ow + 1, y + side <= oh + 1 else { continue }
                squares.append(CropSquare(x: (x - (ow - short) / 2) / short, y: (y - (oh - short) / 2) / short, side: scale))
            }
        }
        return squares
    }

    /// The 64-bit pHash and dHash of the centre square.
    static func centreHashes(of integral: IntegralImage, orientation: ExifOrientation) -> (pHash: UInt64, dHash: UInt64) {
        let sw = Double(integral.width), sh = Double(integral.height)
        let ow = orientation.swapsDimensions ? sh : sw
        let oh = orientation.swapsDimensions ? sw : sh
        let short = min(ow, oh)
        let hasher = PerceptualHasher()
        let centre = storedSquare(x: (ow - short) / 2, y: (oh - short) / 2, side: short,
                                  orientation: orientation, width: sw, height: sh)
        return (hasher.pHash64(of: integral, x: centre.x, y: centre.y, side: short, orientation: orientation),
                hasher.dHash64(of: integral, x: centre.x, y: centre.y, side: short, orientation: orientation))
    }

    /// The top-left corner, in stored coordinates, of a square given in display coordinates.
    /// A display rectangle (of an image stored `storedWidth` × `storedHeight`) as the stored
    /// rectangle it covers.
    static func storedRect(x: Double, y: Double, width: Double, height: Double, orientation: ExifOrientation,
                           storedWidth: Double, storedHeight: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let a = orientation.storedPoint(x: x, y: y, width: storedWidth, height: storedHeight)
        let b = orientation.storedPoint(x: x + width, y: y + height, width: storedWidth, height: storedHeight)
        return (min(a.0, b.0), min(a.1, b.1), abs(b.0 - a.0), abs(b.1 - a.1))
    }

    static func storedSquare(x: Double, y: Double, side: Double, orientation: ExifOrientation,
                             width: Double, height: Double) -> (x: Double, y: Double) {
        let a = orientation.storedPoint(x: x, y: y, width: width, height: height)
        let b = orientation.storedPoint(x: x + side, y: y + side, width: width, height: height)
        return (min(a.0, b.0), min(a.1, b.1))
    }
}
