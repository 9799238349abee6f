import Foundation

/// A quadrilateral in stored-image pixel coordinates, corners clockwise from the stored top-left.
struct Quad: Equatable {
    var corners: [(x: Double, y: Double)]

    static func == (a: Quad, b: Quad) -> Bool {
        zip(a.corners, b.corners).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }

    var area: Double {
        var sum = 0.0
        for i in 0..<4 {
            let p = corners[i], q = corners[(i + 1) % 4]
            sum += p.x * q.y - q.x * p.y
        }
        return abs(sum) / 2
    }

    /// The quad shrunk towards its centre by `fraction` of its size (drops a border or frame edge).
    func inset(_ fraction: Double) -> Quad {
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        return Quad(corners: corners.map { (cx + ($0.x - cx) * (1 - fraction), cy + ($0.y - cy) * (1 - fraction)) })
    }
}

/// Finds the cover in a photo: the largest roughly square quadrilateral whose four sides are
/// backed by straight, high-contrast edges. Phone photos show the cover rotated a few degrees, in
/// perspective and off-centre; warping this quad square before hashing undoes all three at once,
/// which a search over axis-aligned square crops cannot.
///
/// Lines come from a Hough transform restricted to near-horizontal and near-vertical directions
/// (±25°), each edge pixel voting only near its own gradient direction; quads are every pairing
/// of the strongest lines, scored by area × how much of each side is really an edge.
enum QuadFinder {
    struct Line {
        /// Normal direction in degrees and distance from the origin (edge-map pixels).
        let theta: Double
        let rho: Double
        let votes: Int
        let cosine: Double
        let sine: Double
        /// The photo's own border: stands for a side the frame cut off (see `quad`).
        let frame: Bool

        init(theta: Double, rho: Double, votes: Int, frame: Bool = false) {
            self.theta = theta
            self.rho = rho
            self.votes = votes
            self.frame = frame
            cosine = cos(theta * .pi / 180)
            sine = sin(theta * .pi / 180)
        }
    }

    /// Pairs of lines far enough apart to be opposite sides of a cover, ordered (near, far).
    static func sides(_ lines: [Line], minGap: Double, at point: (x: Double, y: Double), horizontal: Bool) -> [(Line, Line)] {
        // Position of each line where it crosses the image's centre row or column.
        let positions = lines.map { l in
            horizontal ? (l.rho - point.x * l.cosine) / l.sine : (l.rho - point.y * l.sine) / l.cosine
        }
        var pairs: [(Line, Line)] = []
        for i in 0..<lines.count {
            for j in (i + 1)..<max(i + 1, lines.count) where abs(positions[i] - positions[j]) >= minGap {
                pairs.append(positions[i] < positions[j] ? (lines[i], lines[j]) : (lines[j], lines[i]))
            }
        }
        return pairs
    }

    static let maxTilt = 25
    static let peaksPerFamily = 16

    /// Up to `limit` distinct cover candidates, best first, in stored-image coordinates.
    static func find(in image: RGBImage, limit: Int = 6) -> [Quad] {
        find(in: EdgeMap(image), limit: limit)
    }

    /// As `find(in:limit:)`, on an edge map already made.
    static func find(in map: EdgeMap, limit: Int = 6) -> [Quad] {
        // The frame's borders join each family: a cover with one edge outside the photo has only
        // three sides of its own, and the border stands in for the fourth.
        let (v, h) = families(map)
        let vertical = v                        // Normals near 0°: left and right sides.
            + [Line(theta: 0, rho: 0, votes: 0, frame: true), Line(theta: 0, rho: Double(map.width - 1), votes: 0, frame: true)]
        let horizontal = h                      // Normals near 90°: top and bottom.
            + [Line(theta: 90, rho: 0, votes: 0, frame: true), Line(theta: 90, rho: Double(map.height - 1), votes: 0, frame: true)]
        let short = Double(min(map.width, map.height))
        let centre = (Double(map.width) / 2, Double(map.height) / 2)
        let topBottom = sides(horizontal, minGap: 0.3 * short, at: centre, horizontal: true)
        let leftRight = sides(vertical, minGap: 0.3 * short, at: centre, horizontal: false)
        var scored: [(quad: Quad, score: Double, framed: Bool)] = []
        for (top, bottom) in topBottom {
            for (left, right) in leftRight {
                if let candidate = quad(top, bottom, left, right, map: map, short: short) {
                    scored.append((candidate.quad, candidate.score, top.frame || bottom.frame || left.frame || right.frame))
                }
            }
        }
        scored.sort { $0.score > $1.score }
        var chosen: [Quad] = []
        let scale = Double(map.factor)
        // Whole outlines first, then at most `framedLimit` cut by the frame: a cut copy of a
        // cover seen whole must not crowd out its true outline.
        for framed in [false, true] {
            var taken = 0
            for (q, _, isFramed) in scored where isFramed == framed {
                let stored = Quad(corners: q.corners.map { (($0.x + 0.5) * scale, ($0.y + 0.5) * scale) })
                // Near-duplicates (a line one pixel over) add hashing cost, not information.
                let tooClose = chosen.contains { other in
                    zip(other.corners, stored.corners).allSatisfy { abs($0.x - $1.x) + abs($0.y - $1.y) < 0.04 * short * scale }
                }
                if tooClose { continue }
                chosen.append(stored)
                taken += 1
                if taken == (framed ? framedLimit : limit) { break }
            }
        }
        return chosen
    }

    /// Both families of lines. A striped table can fill one family's peaks with its stripes while
    /// a turned cover's sides in that family are weaker; a cover's sides meet at right angles, so
    /// each family also gets the best lines square to the other family's strongest directions.
    static func families(_ map: EdgeMap) -> (vertical: [Line], horizontal: [Line]) {
        let v = Accumulator(map, centre: 0), h = Accumulator(map, centre: 90)
        var vertical = v.peaks(count: peaksPerFamily), horizontal = h.peaks(count: peaksPerFamily)
        // Up to four distinct directions among a family's eight strongest lines.
        func directions(_ lines: [Line]) -> Set<Int> {
            var found: [Int] = []
            for line in lines.prefix(8) where !found.contains(where: { abs($0 - Int(line.theta)) <= 2 }) && found.count < 4 {
                found.append(Int(line.theta))
            }
            return Set(found)
        }
        let squareToVertical = Set(directions(vertical).map { $0 + 90 }), squareToHorizontal = Set(directions(horizontal).map { $0 - 90 })
        func add(_ extra: [Line], to lines: inout [Line]) {
            for line in extra where !lines.contains(where: { abs($0.theta - line.theta) <= 2 && abs($0.rho - line.rho) <= 4 }) {
                lines.append(line)
            }
        }
        add(h.peaks(count: perpendicularPeaks, near: squareToVertical), to: &horizontal)
        add(v.peaks(count: perpendicularPeaks, near: squareToHorizontal), to: &vertical)
        return (vertical, horizontal)
    }

    static let perpendicularPeaks = 8
    static let framedLimit = 2

    /// A Hough accumulator over one family's directions (normals within `maxTilt` of `centre`).
    struct Accumulator {
        let centre: Int
        let thetas: Int
        let rhos: Int
        let diagonal: Int
        let minVotes: Int32
        var votes: [Int32]

        init(_ map: EdgeMap, centre: Int) {
            self.centre = centre
            thetas = 2 * maxTilt + 1
            diagonal = Int(Double(map.width * map.width + map.height * map.height).squareRoot()) + 2
            rhos = 2 * diagonal + 1
            minVotes = Int32(Double(min(map.width, map.height)) * 0.15)
            var accumulator = [Int32](repeating: 0, count: thetas * rhos)
            var cosines = [Double](), sines = [Double]()
            for t in 0..<thetas {
                let radians = Double(centre - maxTilt + t) * .pi / 180
                cosines.append(cos(radians))
                sines.append(sin(radians))
            }
            // Each edge pixel votes only for directions within ±6° of its own gradient.
            let spread = 6, thetas = thetas, rhos = rhos, diagonal = diagonal
            accumulator.withUnsafeMutableBufferPointer { acc in
                for y in 1..<(map.height - 1) {
                    for x in 1..<(map.width - 1) {
                        let i = y * map.width + x
                        guard map.magnitude[i] >= EdgeMap.threshold else { continue }
                        var offset = Int(map.angle[i]) - centre
                        if offset > 90 { offset -= 180 } else if offset < -90 { offset += 180 }
                        guard abs(offset) <= maxTilt + spread else { continue }
                        let lo = max(0, offset + maxTilt - spread), hi = min(thetas - 1, offset + maxTilt + spread)
                        guard lo <= hi else { continue }
                        for t in lo...hi {
                            let rho = (Double(x) * cosines[t] + Double(y) * sines[t]).roundedInt + diagonal
                            acc[t * rhos + rho] += 1
                        }
                    }
                }
            }
            votes = accumulator
        }

        /// A line with as strong a parallel one 5–12 px away on *both* sides is one stripe of a
        /// striped table or cloth, not a cover's side (a side has the pattern on one side only).
        func periodic(_ t: Int, _ r: Int) -> Bool {
            let bar = votes[t * rhos + r] * 7 / 10
            func strong(_ sign: Int) -> Bool {
                (5...12).contains { d in
                    let rr = r + sign * d
                    return rr >= 0 && rr < rhos && votes[t * rhos + rr] >= bar
                }
            }
            return strong(1) && strong(-1)
        }

        /// Peaks with non-maximum suppression: ±2° and ±4 px hold one line. Striped tables and
        /// brick textures make many strong lines, so keep enough peaks for the cover's own sides.
        /// `near`: only directions within 3° of one of these (degrees, as `Line.theta`).
        func peaks(count: Int, near directions: Set<Int>? = nil) -> [Line] {
            var allowed = [Bool](repeating: directions == nil, count: thetas)
            for d in directions ?? [] {
                for t in (d - 3)...(d + 3) where t - (centre - maxTilt) >= 0 && t - (centre - maxTilt) < thetas {
                    allowed[t - (centre - maxTilt)] = true
                }
            }
            var found: [Line] = []
            var used = [Bool](repeating: false, count: thetas * rhos)
            let order = votes.indices.filter { votes[$0] >= minVotes && allowed[$0 / rhos] }.sorted { votes[$0] > votes[$1] }
            for index in order {
                if used[index] { continue }
                let t = index / rhos, r = index % rhos
                for dt in -2...2 {
                    for dr in -4...4 {
                        let tt = t + dt, rr = r + dr
                        if tt >= 0, tt < thetas, rr >= 0, rr < rhos { used[tt * rhos + rr] = true }
                    }
                }
                if periodic(t, r) { continue }
                found.append(Line(theta: Double(centre - maxTilt + t), rho: Double(r - diagonal), votes: Int(votes[index])))
                if found.count == count { break }
            }
            return found
        }
    }

    /// How far (fraction of the short side) a corner may lie outside the photo: a cover turned
    /// 25° in a close shot has its corners cut off by the frame.
    static let cornerMargin = 0.12

    /// The quad bounded by two near-horizontal and two near-vertical lines, with its score, or nil
    /// if it is not a plausible cover (too small, not square enough, sides not backed by edges).
    /// One side may be the photo's border (`Line.frame`): the cover runs out of the frame there,
    /// so that side is moved out until the quad is as deep as it is wide (covers are square), and
    /// the quad scores half, so a cover seen whole wins over its own cut-off copy.
    static func quad(_ top: Line, _ bottom: Line, _ left: Line, _ right: Line, map: EdgeMap, short: Double) -> (quad: Quad, score: Double)? {
        let sidesLines = [top, right, bottom, left]
        let framed = sidesLines.filter(\.frame).count
        guard framed <= 1 else { return nil }
        guard var corners = corners(top, bottom, left, right) else { return nil }
        func length(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        // Support is measured on the sides as seen, before a framed side is moved out.
        var product = 1.0
        for (i, line) in sidesLines.enumerated() where !line.frame {
            let a = corners[i], b = corners[(i + 1) % 4]
            let support = Self.support(map, from: a, to: b, normal: line.theta)
            if support < 0.5 { return nil }
            product *= support
        }
        if framed == 1, let i = sidesLines.firstIndex(where: \.frame) {
            // Side i runs corners[i] → corners[i + 1]; its depth is the two sides meeting it.
            let across = (length(corners[(i + 1) % 4], corners[(i + 2) % 4]) + length(corners[(i + 3) % 4], corners[i])) / 2
            let along = (length(corners[i], corners[(i + 1) % 4]) + length(corners[(i + 2) % 4], corners[(i + 3) % 4])) / 2
            let missing = along - across
            // Only a cut of up to a third: beyond that too little of the cover is left to hash.
            guard missing < 0.33 * along else { return nil }
            if missing > 0 {
                let moved = outward(sidesLines[i], by: missing, map: map)
                let l = [top, right, bottom, left].enumerated().map { $0.offset == i ? moved : $0.element }
                guard let extended = Self.corners(l[0], l[2], l[3], l[1]) else { return nil }
                corners = extended
            }
            product *= 0.5
        }
        let margin = cornerMargin * short
        let bound = framed == 1 ? 0.5 * short : margin
        for p in corners where p.x < -bound || p.y < -bound || p.x > Double(map.width) + bound || p.y > Double(map.height) + bound {
            return nil
        }
        let sides = [length(corners[0], corners[1]), length(corners[1], corners[2]), length(corners[2], corners[3]),
                     length(corners[3], corners[0])]
        guard sides.min()! >= 0.3 * short else { return nil }
        // A square in mild perspective: opposite sides and width vs height within ~35 %.
        let widthAvg = (sides[0] + sides[2]) / 2, heightAvg = (sides[1] + sides[3]) / 2
        guard widthAvg / heightAvg < 1.35, heightAvg / widthAvg < 1.35,
              max(sides[0], sides[2]) / min(sides[0], sides[2]) < 1.35,
              max(sides[1], sides[3]) / min(sides[1], sides[3]) < 1.35 else { return nil }
        let q = Quad(corners: corners)
        return (q, q.area * product)
    }

    /// Corners top-left, top-right, bottom-right, bottom-left, or nil for parallel lines.
    static func corners(_ top: Line, _ bottom: Line, _ left: Line, _ right: Line) -> [(x: Double, y: Double)]? {
        guard let tl = intersect(top, left), let tr = intersect(top, right),
              let br = intersect(bottom, right), let bl = intersect(bottom, left) else { return nil }
        return [tl, tr, br, bl]
    }

    /// A frame line moved `distance` further out of the photo.
    static func outward(_ line: Line, by distance: Double, map: EdgeMap) -> Line {
        let far = line.theta == 0 ? Double(map.width - 1) : Double(map.height - 1)
        let rho = line.rho >= far / 2 ? line.rho + distance : line.rho - distance
        return Line(theta: line.theta, rho: rho, votes: 0, frame: true)
    }

    /// Fraction of points along the segment (ends excluded: corners are often rounded or shaded)
    /// that sit on an edge parallel to it.
    static func support(_ map: EdgeMap, from a: (x: Double, y: Double), to b: (x: Double, y: Double), normal: Double) -> Double {
        let samples = 40
        var hits = 0
        let n = ((Int(normal.rounded()) % 180) + 180) % 180
        let step = (Int(cos(normal * .pi / 180).rounded()), Int(sin(normal * .pi / 180).rounded()))
        for s in 0..<samples {
            let t = 0.08 + 0.84 * Double(s) / Double(samples - 1)
            if map.supports(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, normal: n, step: step, tolerance: 12) {
                hits += 1
            }
            // Bail out once the side cannot reach the bar: most pairings fail here.
            if hits + (samples - 1 - s) < samples / 2 { return 0 }
        }
        return Double(hits) / Double(samples)
    }

    static func intersect(_ a: Line, _ b: Line) -> (x: Double, y: Double)? {
        let det = a.cosine * b.sine - a.sine * b.cosine
        guard abs(det) > 1e-6 else { return nil }
        return ((a.rho * b.sine - b.rho * a.sine) / det, (a.cosine * b.rho - b.cosine * a.rho) / det)
    }
}
