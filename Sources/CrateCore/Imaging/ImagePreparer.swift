import CJpeg
import Foundation

/// A photo ready for identification: the upright square JPEG for the vision provider and the
/// hashes for tier 0. The photo itself is never written to disk.
public struct PreparedPhoto: Sendable {
    /// Square JPEG, `ImagePreparer.visionSize` px (smaller only if the photo is smaller).
    public let visionJPEG: Data
    public let visionSide: Int
    public let hashes: PhotoHashes
    public let header: JPEGHeader
    /// The upright photo around the vision square, at the vision square's scale: what tier 0's
    /// verification aligns in (kept in memory only). It reaches past the square (up to
    /// `ImagePreparer.surroundReach` of its side, within the frame) so that a cover near the side of
    /// a landscape or portrait photo is still seen whole.
    public let surround: RGBImage
    /// Where the vision square's top-left corner lies in `surround`, in pixels.
    public let visionOrigin: (x: Int, y: Int)

    /// The pixels of `visionJPEG` before encoding.
    public var visionImage: RGBImage {
        surround.cropped(x: visionOrigin.x, y: visionOrigin.y, width: visionSide, height: visionSide)
    }

    /// `outline` (fractions of the vision square) as corner points in `surround`'s pixels.
    public func surroundCorners(_ outline: CropOutline) -> [Double] {
        outline.points.enumerated().map { i, p in
            p * Double(visionSide) + Double(i % 2 == 0 ? visionOrigin.x : visionOrigin.y)
        }
    }
    /// The luma of the whole decoded (DCT-scaled) photo, in stored orientation, when asked for
    /// (`keepingLuma`): what the barcode reader scans, so the photo is not decoded twice.
    let luma: GreyPlane?
}

/// Artwork files made from a downloaded cover.
public struct PreparedArtwork: Sendable {
    /// ≤ 500 px square JPEG.
    public let large: Data
    /// 200 px square JPEG.
    public let thumbnail: Data
    public let hash: CoverHash
}

/// Turns photos and artwork into what identification and the library need (docs/decisions/0008-photo-preparation.md).
public struct ImagePreparer: Sendable {
    public let visionSize: Int
    public let artworkSize: Int
    public let thumbnailSize: Int
    public let quality: Int
    public let cropSearch: CropSearch
    /// Whether the decoding thread builds the luma table (the default) or leaves it to the thread
    /// that consumes the rows, as before; the benchmark compares the two in one build.
    public var integralOnDecoderThread = true

    /// How far `PreparedPhoto.surround` reaches past the vision square, as a share of its side:
    /// 0.4 takes in the whole frame of a 4:3 or 16:9 photo around its centre square.
    public static let surroundReach = 0.4

    public init(visionSize: Int = 1024, artworkSize: Int = 500, thumbnailSize: Int = 200, quality: Int = 85,
                cropSearch: CropSearch = .standard) {
        self.visionSize = visionSize
        self.artworkSize = artworkSize
        self.thumbnailSize = thumbnailSize
        self.quality = quality
        self.cropSearch = cropSearch
    }

    /// Reads and prepares a photo file.
    public func preparePhoto(at url: URL, crop: NormalizedRect? = nil, keepingLuma: Bool = false) throws -> PreparedPhoto {
        try preparePhoto(Self.read(url), crop: crop, keepingLuma: keepingLuma)
    }

    /// Prepares a photo: validate, decode with DCT scaling, crop a square (the centre, or the
    /// largest centred square inside `crop`), resize, orient, encode, hash. `keepingLuma`: the
    /// decoded photo's luma is kept too (for the barcode reader), written by the thread that
    /// already computes each pixel's luma for the hashing table.
    public func preparePhoto(_ data: Data, crop: NormalizedRect? = nil, keepingLuma: Bool = false) throws -> PreparedPhoto {
        _ = Self.allocatorTuned
        try Self.validate(data)
        let full = try JPEGCodec.probe(data)
        let ow = Double(full.orientation.swapsDimensions ? full.height : full.width)
        let oh = Double(full.orientation.swapsDimensions ? full.width : full.height)
        let square = Self.square(in: crop, width: ow, height: oh)
        // Decode just large enough for the crop to still give `visionSize` pixels.
        let shortSide = min(ow, oh)
        let needed = Int((Double(visionSize) * shortSide / square.side).rounded(.up))
        // 1/8, 1/4, 1/2: libjpeg-turbo has SIMD code for these scales only, and 1/2 decodes
        // faster than 3/8 though it makes more pixels.
        let header = try JPEGCodec.probe(data, minShortSide: needed, powerOfTwoOnly: true)
        let w = header.scaledWidth, h = header.scaledHeight
        let factor = Double(w) / Double(full.width)
        let side = square.side * factor
        let outSide = max(1, min(visionSize, Int(side.rounded())))
        let orientation = full.orientation
        // The surround: whole output pixels added on each side of the vision square, so that its
        // samples fall where the square's alone would (the vision JPEG is cut out of it unchanged).
        let dw = Double(orientation.swapsDimensions ? h : w), dh = Double(orientation.swapsDimensions ? w : h)
        let vx = square.x * factor, vy = square.y * factor
        let scale = Double(outSide) / side
        let reach = Self.surroundReach * Double(outSide)
        let room = { (decoded: Double) in max(0, Int(min(reach, (decoded * scale).rounded(.down)))) }
        let left = room(vx), top = room(vy), right = room(dw - vx - side), bottom = room(dh - vy - side)
        let surroundWidth = outSide + left + right, surroundHeight = outSide + top + bottom
        let region = CoverHashing.storedRect(x: vx - Double(left) / scale, y: vy - Double(top) / scale,
                                             width: Double(surroundWidth) / scale, height: Double(surroundHeight) / scale,
                                             orientation: orientation, storedWidth: Double(w), storedHeight: Double(h))

        // Phase 1: one core decodes and adds each batch of rows to the luma table for hashing
        // while they are still in its cache; the other takes the rows as they are published —
        // the shrunk copy for edge finding and the first pass of the vision resize. (The resize
        // alone costs about as much as the decode, so the table goes with the decoder.)
        let swaps = orientation.swapsDimensions
        var plan = Resampler.Plan(sourceWidth: w, sourceHeight: h, channels: 3, crop: region,
                                  width: swaps ? surroundHeight : surroundWidth, height: swaps ? surroundWidth : surroundHeight)
        var shrinker = EdgeMap.Shrinker(width: w, height: h, channels: 3)
        var decodeError: Error?
        let count = w * h * 3
        let tableCount = (w + 1) * (h + 1)
        let tableOnDecoder = integralOnDecoderThread
        var sums: [UInt32] = []
        let lumaPixels = try Self.withLumaBuffer(count: w * h, keep: keepingLuma) { luma in
            sums = [UInt32](unsafeUninitializedCapacity: tableCount) { table, filled in
                let sumsBase = table.baseAddress!
                IntegralImage.startTable(sumsBase, width: w)
                // The decoded photo itself is needed only while its rows go by.
                _ = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    let source = UnsafePointer(buffer.baseAddress!)
                    let addToTable = { (rows: Range<Int>) in
                        IntegralImage.addRows(rows, pixels: source, width: w, channels: 3, to: sumsBase, luma: luma)
                    }
                    let progress = RowProgress(onDecoderThread: tableOnDecoder ? addToTable : nil)
                    // Task 0 writes the buffer (and, on its own thread, the table); task 1 reads only
                    // rows RowProgress has published.
                    Parallel.perform(iterations: 2) { task in
                        if task == 0 {
                            do {
                                try JPEGCodec.decode(data, header: header, fast: true, into: buffer, progress: progress)
                            } catch {
                                decodeError = error
                            }
                            return
                        }
                        var done = 0
                        while done < h {
                            guard let ready = progress.wait(beyond: done), ready > done else { break }
                            if !tableOnDecoder { addToTable(done..<ready) }
                            shrinker.add(done..<ready, pixels: source)
                            plan.add(done..<ready, pixels: source)
                            done = ready
                        }
                    }
                    if decodeError != nil { buffer.initialize(repeating: 0) }
                    initialized = count
                }
                if decodeError != nil { table.initialize(repeating: 0) }  // Decoding failed; thrown below.
                filled = tableCount
            }
            if let decodeError { throw decodeError }
        }

        // Phase 2: the vision JPEG, the cover's outline, and the crop search one scale at a time,
        // handed out to both cores as they free up (longest first).
        let integral = IntegralImage(width: w, height: h, sums: sums)
        let scales = cropSearch.scales, offsets = cropSearch.offsets, quality = quality
        var jpeg: Result<Data, Error> = .failure(ImageError.encodingFailed("not run"))
        var surround: RGBImage?
        var outline: [Hash256] = []
        var quads: [Quad] = []
        var centre: (pHash: UInt64, dHash: UInt64) = (0, 0)
        let edgeSearch = cropSearch.edges
        // The crop scales, then the four frame edges (`EdgeSearch`).
        var crops = [[Hash256]](repeating: [], count: scales.count + 4)
        crops.withUnsafeMutableBufferPointer { crops in
            // Each task writes its own variable or its own slot of `crops`.
            Parallel.perform(iterations: 2 + scales.count + 4) { task in
                switch task {
                case 0:
                    let upright = plan.finish().oriented(orientation)
                    surround = upright
                    jpeg = Result { try JPEGCodec.encode(upright.cropped(x: left, y: top, width: outSide, height: outSide),
                                                         quality: quality) }
                case 1:
                    quads = QuadFinder.find(in: EdgeMap(shrinker))
                    outline = CoverHashing.quadHashes(quads, integral: integral, orientation: orientation)
                    centre = CoverHashing.centreHashes(of: integral, orientation: orientation)
                case 2..<(2 + scales.count):
                    crops[task - 2] = CoverHashing.cropCandidates(of: integral, orientation: orientation,
                                                                  scale: scales[task - 2], offsets: offsets)
                default:
                    crops[task - 2] = CoverHashing.edgeCandidates(of: integral, orientation: orientation,
                                                                  edge: task - 2 - scales.count, search: edgeSearch)
                }
            }
        }
        // The crop squares, re-expressed in the vision square (the centre one unless `crop` chose another).
        let short = min(dw, dh)
        let inVision = { (c: CropSquare) -> CropSquare in
            let x: Double = (c.x * short + (dw - short) / 2 - vx) / side
            let y: Double = (c.y * short + (dh - short) / 2 - vy) / side
            return CropSquare(x: x, y: y, side: c.side * short / side)
        }
        let squares = scales.flatMap {
            CoverHashing.cropSquares(width: w, height: h, orientation: orientation, scale: $0, offsets: offsets)
        }.map(inVision)
        let edgeSquares = CoverHashing.edgeSquares(width: w, height: h, orientation: orientation, search: edgeSearch).map(inVision)
        let outlines = CoverHashing.outlines(quads, orientation: orientation, width: Double(w), height: Double(h),
                                             x: vx, y: vy, side: side)
        // Candidates in `PhotoHashes`' order: crop squares, outlines, edge squares.
        let hashes = PhotoHashes(candidates: crops.prefix(scales.count).flatMap { $0 } + outline + crops.suffix(4).flatMap { $0 },
                                 pHash: centre.pHash, dHash: centre.dHash, cropSquares: squares,
                                 outlines: outlines + edgeSquares.map(CropOutline.init(square:)),
                                 edgeSquareCount: edgeSquares.count)
        let encoded = try jpeg.get()
        guard let surround else { throw ImageError.encodingFailed("no vision image") }
        return PreparedPhoto(visionJPEG: encoded, visionSide: outSide, hashes: hashes, header: header, surround: surround,
                             visionOrigin: (left, top), luma: lumaPixels.map { GreyPlane(width: w, height: h, pixels: $0) })
    }

    /// Runs `body` with an uninitialised `count`-byte buffer for the luma plane when `keep` (nil
    /// otherwise), and returns the buffer. `body` throws only after it has stopped writing; the
    /// buffer is then zeroed, as the other buffers of a failed decode.
    private static func withLumaBuffer(count: Int, keep: Bool, _ body: (UnsafeMutablePointer<UInt8>?) throws -> Void) throws -> [UInt8]? {
        guard keep else {
            try body(nil)
            return nil
        }
        var failure: Error?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do {
                try body(buffer.baseAddress!)
            } catch {
                buffer.initialize(repeating: 0)
                failure = error
            }
            initialized = count
        }
        if let failure { throw failure }
        return pixels
    }

    /// Decodes a photo upright at full size (tools, tests).
    public func decodeUpright(_ data: Data, minShortSide: Int = 0) throws -> RGBImage {
        try Self.validate(data)
        let (image, header) = try JPEGCodec.decode(data, minShortSide: minShortSide)
        return image.oriented(header.orientation)
    }

    /// From downloaded cover art: a ≤ 500 px JPEG, a 200 px thumbnail and the cover's hashes.
    public func prepareArtwork(_ data: Data) throws -> PreparedArtwork {
        if ImageFormat.sniff(data) == .png {
            // Artwork (not a photo) may be a PNG: decoded, then prepared as a lossless-quality JPEG.
            return try prepareArtwork(try JPEGCodec.encode(try PNGCodec.decode(data), quality: 95))
        }
        try Self.validate(data)
        let full = try JPEGCodec.probe(data)
        let header = try JPEGCodec.probe(data, minShortSide: artworkSize)
        let image = try JPEGCodec.decode(data, header: header).oriented(full.orientation)
        let side = Double(min(image.width, image.height))
        let crop = ((Double(image.width) - side) / 2, (Double(image.height) - side) / 2, side, side)
        let largeSide = min(artworkSize, Int(side))
        let large = Resampler.resize(image, crop: crop, width: largeSide, height: largeSide)
        let thumbSide = min(thumbnailSize, largeSide)
        let thumb = Resampler.resize(large, width: thumbSide, height: thumbSide)
        return PreparedArtwork(
            large: try JPEGCodec.encode(large, quality: quality),
            thumbnail: try JPEGCodec.encode(thumb, quality: quality),
            hash: CoverHashing.coverHash(of: large))
    }

    /// Just the 200 px thumbnail of downloaded artwork.
    public func thumbnail(fromArtwork data: Data) throws -> Data {
        try prepareArtwork(data).thumbnail
    }

    /// Once per process, before the first photo (see `crate_tune_allocator`).
    private static let allocatorTuned: Void = crate_tune_allocator()

    // MARK: - Validation

    /// Checks the bytes before any decoding: empty, not an image, or a format Crate doesn't decode.
    /// Downloaded artwork: a JPEG or a PNG (`prepareArtwork` reads both); anything else is refused
    /// with what it is.
    public static func validateArtwork(_ data: Data) throws {
        if ImageFormat.sniff(data) == .png { return }
        try validate(data)
    }

    public static func validate(_ data: Data) throws {
        if data.isEmpty { throw ImageError.emptyFile }
        guard let format = ImageFormat.sniff(data) else { throw ImageError.notAnImage }
        if format != .jpeg { throw ImageError.unsupportedFormat(format.rawValue) }
    }

    /// The photo's bytes, checked before they are read (see `ImageFile`).
    static func read(_ url: URL) throws -> Data {
        try ImageFile.read(url)
    }

    /// The square to use, in display coordinates: centred in the photo or in the given rectangle.
    static func square(in crop: NormalizedRect?, width: Double, height: Double) -> (x: Double, y: Double, side: Double) {
        guard let crop else {
            let side = min(width, height)
            return ((width - side) / 2, (height - side) / 2, side)
        }
        let x0 = max(0, min(1, crop.x)) * width, y0 = max(0, min(1, crop.y)) * height
        let x1 = max(0, min(1, crop.x + crop.width)) * width, y1 = max(0, min(1, crop.y + crop.height)) * height
        let side = max(1, min(x1 - x0, y1 - y0))
        return (x0 + (x1 - x0 - side) / 2, y0 + (y1 - y0 - side) / 2, side)
    }
}
