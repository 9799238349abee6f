/// A summed-area table of an image's luma, so any box average costs four lookups. The crop search
/// samples hundreds of crops; this keeps each one independent of the crop's size.
struct IntegralImage {
    let width: Int
    let height: Int
    /// `(width + 1) × (height + 1)`, first row and column zero.
    let sums: [UInt32]

    /// Builds the table straight from RGB (luma computed on the fly) or grey pixels.
    init(_ image: RGBImage) {
        let w = image.width, h = image.height, stride = w + 1
        let c = image.channels
        let count = stride * (h + 1)
        // UInt32 holds up to 16.8 M pixels of 255 — the decode is at most ~3 MP after DCT scaling;
        // larger inputs are first shrunk by the caller.
        precondition(w * h <= 16_000_000)
        sums = [UInt32](unsafeUninitializedCapacity: count) { s, initialized in
            for x in 0...w { s[x] = 0 }
            image.pixels.withUnsafeBufferPointer { p in
                for y in 0..<h {
                    let above = (y) * stride
                    let here = (y + 1) * stride
                    s[here] = 0
                    var rowSum: UInt32 = 0
                    var i = y * w * c
                    for x in 0..<w {
                        let luma: UInt32
                        if c == 3 {
                            luma = (77 &* UInt32(p[i]) &+ 150 &* UInt32(p[i + 1]) &+ 29 &* UInt32(p[i + 2])) >> 8
                        } else {
                            luma = UInt32(p[i])
                        }
                        i += c
                        rowSum &+= luma
                        s[here + x + 1] = s[above + x + 1] &+ rowSum
                    }
                }
            }
            initialized = count
        }
        width = w
        height = h
    }

    /// Samples an `n × n` grid of box averages over the square (x, y, side) into `out` (row-major).
    func sampleSquare(x: Double, y: Double, side: Double, n: Int, into out: UnsafeMutableBufferPointer<Float>) {
        let stride = width + 1
        let cell = side / Double(n)
        // Cell edges, rounded to whole pixels and never empty.
        var xs = [Int](repeating: 0, count: n + 1)
        var ys = [Int](repeating: 0, count: n + 1)
        for i in 0...n {
            xs[i] = min(width, max(0, Int((x + Double(i) * cell).rounded())))
            ys[i] = min(height, max(0, Int((y + Double(i) * cell).rounded())))
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
