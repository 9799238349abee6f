/// A summed-area table of an image's luma, so any box average costs four lookups. The crop search
/// samples hundreds of crops; this keeps each one independent of the crop's size.
struct IntegralImage {
    let width: Int
    let height: Int
    /// `(width + 1) × (height + 1)`, first row and column zero.
    let sums: [UInt32]

    /// Builds the table straight from RGB (luma computed on the fly) or grey pixels.
    init(_ image: RGBImage) {
        let w = image.width, h = image.height
        // UInt32 holds up to 16.8 M pixels of 255 — the decode is at most ~3 MP after DCT scaling;
        // larger inputs are first shrunk by the caller.
        precondition(w * h <= 16_000_000)
        let count = (w + 1) * (h + 1)
        let sums = [UInt32](unsafeUninitializedCapacity: count) { s, initialized in
            image.pixels.withUnsafeBufferPointer { p in
                Self.startTable(s.baseAddress!, width: w)
                Self.addRows(0..<h, pixels: p.baseAddress!, width: w, channels: image.channels, to: s.baseAddress!)
            }
            initialized = count
        }
        self.init(width: w, height: h, sums: sums)
    }

    /// A table built with `startTable` and `addRows`.
    init(width: Int, height: Int, sums: [UInt32]) {
        precondition(sums.count == (width + 1) * (height + 1))
        self.width = width
        self.height = height
        self.sums = sums
    }

    /// The zero first row of a table being built row by row.
    static func startTable(_ s: UnsafeMutablePointer<UInt32>, width w: Int) {
        s.initialize(repeating: 0, count: w + 1)
    }

    /// Adds image rows `rows` (all rows before them already added) to a table being built, so
    /// it can grow while the image is still decoding.
    /// `luma`: also writes each pixel's luma there (`width` bytes a row), computed anyway for the
    /// sums (the barcode reader's plane, for free while the pixels are in cache).
    static func addRows(_ rows: Range<Int>, pixels p: UnsafePointer<UInt8>, width w: Int, channels c: Int,
                        to s: UnsafeMutablePointer<UInt32>, luma: UnsafeMutablePointer<UInt8>? = nil) {
        let stride = w + 1
        for y in rows {
            let above = s + y * stride, here = s + (y + 1) * stride
            here[0] = 0
            var rowSum: UInt32 = 0
            let src = p + y * w * c
            // The running row sum is serial; adding the row above is a separate, vectorised pass.
            if c == 3, let luma {
                let out = luma + y * w
                for x in 0..<w {
                    let i = 3 * x
                    let value = (77 &* UInt32(src[i]) &+ 150 &* UInt32(src[i + 1]) &+ 29 &* UInt32(src[i + 2])) >> 8
                    out[x] = UInt8(truncatingIfNeeded: value)
                    rowSum &+= value
                    here[x + 1] = rowSum
                }
            } else if c == 3 {
                for x in 0..<w {
                    let i = 3 * x
                    rowSum &+= (77 &* UInt32(src[i]) &+ 150 &* UInt32(src[i + 1]) &+ 29 &* UInt32(src[i + 2])) >> 8
                    here[x + 1] = rowSum
                }
            } else {
                if let luma { (luma + y * w).initialize(from: src, count: w) }
                for x in 0..<w {
                    rowSum &+= UInt32(src[x])
                    here[x + 1] = rowSum
                }
            }
            for x in 1...w { here[x] &+= above[x] }
        }
    }

    /// Samples an `n × n` grid of box averages over the square (x, y, side) into `out` (row-major).
    func sampleSquare(x: Double, y: Double, side: Double, n: Int, into out: UnsafeMutableBufferPointer<Float>) {
        let stride = width + 1
        let cell = side / Double(n)
        // Cell edges, rounded to whole pixels and never empty.
        var xs = [Int](repeating: 0, count: n + 1)
        var ys = [Int](repeating: 0, count: n + 1)
        for i in 0...n {
            xs[i] = min(width, max(0, (x + Double(i) * cell).roundedInt))
            ys[i] = min(height, max(0, (y + Double(i) * cell).roundedInt))
        }
        for i in 1...n {
            if xs[i] <= xs[i - 1] { xs[i] = min(width, xs[i - 1] + 1) }
            if ys[i] <= ys[i - 1] { ys[i] = min(height, ys[i - 1] + 1) }
        }
        sums.withUnsafeBufferPointer { s in
            for j in 0..<n {
                let top = ys[j] * stride, bottom = ys[j + 1] * stride
                let rows = ys[j + 1] - ys[j]
                for i in 0..<n {
                    let x0 = xs[i], x1 = xs[i + 1]
                    let area = rows * (x1 - x0)
                    if area <= 0 { out[j * n + i] = out[max(0, j * n + i - 1)]; continue }
                    let total = s[bottom + x1] &- s[top + x1] &- s[bottom + x0] &+ s[top + x0]
                    out[j * n + i] = Float(total) / Float(area)
                }
            }
        }
    }
}

extension IntegralImage {
    /// Samples an `n × n` grid over a quadrilateral (a perspective-warped square) into `out`:
    /// each cell is the box average around the homography image of its centre, the box as wide
    /// as a cell on average, so the warp is antialiased like `sampleSquare`.
    func sampleQuad(_ quad: Quad, n: Int, into out: UnsafeMutableBufferPointer<Float>) {
        let map = Homography(unitSquareTo: quad)
        let half = max(0.5, quad.area.squareRoot() / Double(n) / 2)
        let stride = width + 1
        sums.withUnsafeBufferPointer { s in
            for j in 0..<n {
                let v = (Double(j) + 0.5) / Double(n)
                for i in 0..<n {
                    let (px, py) = map.apply(u: (Double(i) + 0.5) / Double(n), v: v)
                    let x0 = min(width - 1, max(0, (px - half).roundedInt))
                    let y0 = min(height - 1, max(0, (py - half).roundedInt))
                    let x1 = max(x0 + 1, min(width, (px + half).roundedInt))
                    let y1 = max(y0 + 1, min(height, (py + half).roundedInt))
                    let total = s[y1 * stride + x1] &- s[y0 * stride + x1] &- s[y1 * stride + x0] &+ s[y0 * stride + x0]
                    out[j * n + i] = Float(total) / Float((x1 - x0) * (y1 - y0))
                }
            }
        }
    }
}

/// The projective map from the unit square (u, v) to a quad's corners (Heckbert 1989).
struct Homography {
    let a, b, c, d, e, f, g, h: Double

    init(unitSquareTo quad: Quad) {
        let (x0, y0) = quad.corners[0], (x1, y1) = quad.corners[1]
        let (x2, y2) = quad.corners[2], (x3, y3) = quad.corners[3]
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let det = dx1 * dy2 - dx2 * dy1
        // A parallelogram (or a degenerate quad) is affine: no perspective terms.
        let g = abs(det) < 1e-9 ? 0 : (sx * dy2 - dx2 * sy) / det
        let h = abs(det) < 1e-9 ? 0 : (dx1 * sy - sx * dy1) / det
        self.a = x1 - x0 + g * x1
        self.b = x3 - x0 + h * x3
        self.c = x0
        self.d = y1 - y0 + g * y1
        self.e = y3 - y0 + h * y3
        self.f = y0
        self.g = g
        self.h = h
    }

    @inline(__always)
    func apply(u: Double, v: Double) -> (Double, Double) {
        let w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    }
}
