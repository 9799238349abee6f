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

        init(theta: Double, rho: Double, votes: Int) {
            self.theta = theta
            self.rho = rho
            self.votes = votes
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
        let vertical = lines(map, centre: 0)    // Normals near 0°: left and right sides.
        let horizontal = lines(map, centre: 90) // Normals near 90°: top and bottom.
        let short = Double(min(map.width, map.height))
        let centre = (Double(map.width) / 2, Double(map.height) / 2)
        let topBottom = sides(horizontal, minGap: 0.3 * short, at: centre, horizontal: true)
        let leftRight = sides(vertical, minGap: 0.3 * short, at: centre, horizontal: false)
        var scored: [(quad: Quad, score: Double)] = []
        for (top, bottom) in topBottom {
            for (left, right) in leftRight {
                if let candidate = quad(top, bottom, left, right, map: map, short: short) { scored.append(candidate) }
            }
        }
        scored.sort { $0.score > $1.score }
        var chosen: [Quad] = []
        let scale = Double(map.factor)
        for (q, _) in scored {
            let stored = Quad(corners: q.corners.map { (($0.x + 0.5) * scale, ($0.y + 0.5) * scale) })
            // Near-duplicates (a line one pixel over) add hashing cost, not information.
            let tooClose = chosen.contains { other in
                zip(other.corners, stored.corners).allSatisfy { abs($0.x - $1.x) + abs($0.y - $1.y) < 0.04 * short * scale }
            }
            if tooClose { continue }
            chosen.append(stored)
            if chosen.count == limit { break }
        }
        return chosen
    }

    /// The strongest lines whose normal is within `maxTilt` of `centre` degrees.
    static func lines(_ map: EdgeMap, centre: Int) -> [Line] {
        let thetas = (2 * maxTilt + 1)
        let diagonal = Int(Double(map.width * map.width + map.height * map.height).squareRoot()) + 2
        let rhos = 2 * diagonal + 1
        var accumulator = [Int32](repeating: 0, count: thetas * rhos)
        var cosines = [Double](), sines = [Double]()
        for t in 0..<thetas {
            let radians = Double(centre - maxTilt + t) * .pi / 180
            cosines.append(cos(radians))
            sines.append(sin(radians))
        }
        // Each edge pixel votes only for directions within ±6° of its own gradient.
        let spread = 6
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
        // Peaks with non-maximum suppression: ±2° and ±4 px hold one line. Striped tables and
        // brick textures make many strong lines, so keep enough peaks for the cover's own sides.
        let minVotes = Int32(Double(min(map.width, map.height)) * 0.15)
        var found: [Line] = []
        var used = [Bool](repeating: false, count: thetas * rhos)
        let order = accumulator.indices.filter { accumulator[$0] >= minVotes }.sorted { accumulator[$0] > accumulator[$1] }
        for index in order {
            if used[index] { continue }
            let t = index / rhos, r = index % rhos
            for dt in -2...2 {
                for dr in -4...4 {
                    let tt = t + dt, rr = r + dr
                    if tt >= 0, tt < thetas, rr >= 0, rr < rhos { used[tt * rhos + rr] = true }
                }
            }
            found.append(Line(theta: Double(centre - maxTilt + t), rho: Double(r - diagonal), votes: Int(accumulator[index])))
            if found.count == peaksPerFamily { break }
        }
        return found
    }

    /// The quad bounded by two near-horizontal and two near-vertical lines, with its score, or nil
    /// if it is not a plausible cover (too small, not square enough, sides not backed by edges).
    static func quad(_ top: Line, _ bottom: Line, _ left: Line, _ right: Line, map: EdgeMap, short: Double) -> (quad: Quad, score: Double)? {
        guard let tl = intersect(top, left), let tr = intersect(top, right),
              let br = intersect(bottom, right), let bl = intersect(bottom, left) else { return nil }
        let corners = [tl, tr, br, bl]
        let margin = 0.04 * short
        for p in corners where p.x < -margin || p.y < -margin || p.x > Double(map.width) + margin || p.y > Double(map.height) + margin {
            return nil
        }
        func length(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        let sides = [length(tl, tr), length(tr, br), length(br, bl), length(bl, tl)]
        guard sides.min()! >= 0.3 * short else { return nil }
        // A square in mild perspective: opposite sides and width vs height within ~35 %.
        let widthAvg = (sides[0] + sides[2]) / 2, heightAvg = (sides[1] + sides[3]) / 2
        guard widthAvg / heightAvg < 1.35, heightAvg / widthAvg < 1.35,
              max(sides[0], sides[2]) / min(sides[0], sides[2]) < 1.35,
              max(sides[1], sides[3]) / min(sides[1], sides[3]) < 1.35 else { return nil }
        var product = 1.0
        for (i, line) in [top, right, bottom, left].enumerated() {
            let a = corners[i], b = corners[(i + 1) % 4]
            let support = Self.support(map, from: a, to: b, normal: line.theta)
            if support < 0.5 { return nil }
            product *= support
        }
        let q = Quad(corners: corners)
        return (q, q.area * product)
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
