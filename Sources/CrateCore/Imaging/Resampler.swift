/// Separable resampling with a triangle (bilinear) filter widened by the scale factor, as Pillow
/// does: a proper low-pass filter when shrinking, plain bilinear when enlarging. Weights are
/// precomputed once per axis in 14-bit fixed point so the inner loops are integer multiply-adds.
public enum Resampler {
    /// Resizes the `crop` of `image` (in pixels, may be fractional) to `width × height`.
    public static func resize(_ image: RGBImage, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
                              width: Int, height: Int) -> RGBImage {
        var plan = Plan(sourceWidth: image.width, sourceHeight: image.height, channels: image.channels,
                        crop: crop, width: width, height: height)
        image.pixels.withUnsafeBufferPointer { plan.add(0..<image.height, pixels: $0.baseAddress!) }
        return plan.finish()
    }

    /// A resize whose first (horizontal) pass takes source rows as they are decoded; `finish`
    /// runs the vertical pass once every row it needs has been added.
    struct Plan {
        let sourceWidth: Int
        let channels: Int
        let width: Int
        let height: Int
        private let kx: Kernel
        private let ky: Kernel
        private let firstRow: Int
        private let rows: Int
        private var temp: [UInt8]
        private var out: [UInt8]
        /// Output rows done by the vertical pass so far.
        private var outRows = 0

        init(sourceWidth: Int, sourceHeight: Int, channels: Int,
             crop: (x: Double, y: Double, width: Double, height: Double)?, width: Int, height: Int) {
            let region = crop ?? (0, 0, Double(sourceWidth), Double(sourceHeight))
            self.sourceWidth = sourceWidth
            self.channels = channels
            self.width = width
            self.height = height
            kx = Kernel(start: region.x, size: region.width, limit: sourceWidth, output: width)
            ky = Kernel(start: region.y, size: region.height, limit: sourceHeight, output: height)
            firstRow = ky.minSource
            rows = ky.maxSourceEnd - firstRow
            temp = [UInt8](repeating: 0, count: width * rows * channels)
            out = [UInt8](repeating: 0, count: width * height * channels)
        }

        /// Horizontal pass over the source rows in `range` that the vertical pass reads.
        mutating func add(_ range: Range<Int>, pixels: UnsafePointer<UInt8>) {
            let lo = max(range.lowerBound, firstRow), hi = min(range.upperBound, firstRow + rows)
            guard lo < hi else { return }
            let (kx, sourceWidth, channels, width, firstRow) = (kx, sourceWidth, channels, width, firstRow)
            temp.withUnsafeMutableBufferPointer { dst in
                horizontal(src: pixels, srcWidth: sourceWidth, rows: lo..<hi, firstRow: firstRow, channels: channels,
                           kernel: kx, dst: dst, dstWidth: width)
            }
            // Rows before `range` were added earlier: every output row whose taps end by `hi`
            // can be made now, while the rest of the image still decodes.
            var ready = outRows
            while ready < height, ky.starts[ready] + ky.taps <= hi { ready += 1 }
            verticalRows(outRows..<ready)
        }

        /// The resized image, once every source row has been added.
        mutating func finish() -> RGBImage {
            verticalRows(outRows..<height)
            return RGBImage(width: width, height: height, channels: channels, pixels: out)
        }

        private mutating func verticalRows(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            let (ky, firstRow, rowWidth) = (ky, firstRow, width * channels)
            temp.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    vertical(src: src, firstRow: firstRow, rowWidth: rowWidth, kernel: ky, dst: dst, rows: range)
                }
            }
            outRows = range.upperBound
        }
    }

    // MARK: - Private

    static let precision: Int32 = 14

    /// For each output index: the first source index and `taps` weights (zero-padded).
    struct Kernel {
        let starts: [Int]
        let weights: [Int32]
        let taps: Int

        var minSource: Int { starts.min() ?? 0 }
        var maxSourceEnd: Int { (starts.max() ?? 0) + taps }

        init(start: Double, size: Double, limit: Int, output: Int) {
            let scale = size / Double(output)
            let filterScale = max(scale, 1.0)
            let support = filterScale  // Triangle radius 1, widened when shrinking.
            var taps = Int((support * 2).rounded(.up)) + 1
            taps = min(taps, limit)
            var starts = [Int](repeating: 0, count: output)
            var weights = [Int32](repeating: 0, count: output * taps)
            var w = [Double](repeating: 0, count: taps)
            for i in 0..<output {
                let center = start + (Double(i) + 0.5) * scale
                var first = Int((center - support).rounded(.down))
                first = max(0, min(first, limit - taps))
                var total = 0.0
                for t in 0..<taps {
                    let x = (Double(first + t) + 0.5 - center) / filterScale
                    let v = max(0, 1 - abs(x))
                    w[t] = v
                    total += v
                }
                if total <= 0 {  // Degenerate: nearest source pixel.
                    let nearest = max(0, min(limit - 1, Int(center)))
                    for t in 0..<taps { w[t] = (first + t == nearest) ? 1 : 0 }
                    total = 1
                }
                // Rounded fixed point; put the rounding error on the largest tap so rows sum exactly.
                var sum: Int32 = 0
                var largest = 0
                for t in 0..<taps {
                    let q = Int32((w[t] / total * Double(1 << Resampler.precision)).rounded())
                    weights[i * taps + t] = q
                    sum += q
                    if w[t] > w[largest] { largest = t }
                }
                weights[i * taps + largest] += (1 << Resampler.precision) - sum
                starts[i] = first
            }
            self.starts = starts
            self.weights = weights
            self.taps = taps
        }
    }

    @inline(__always)
    static func clamp(_ acc: Int32) -> UInt8 {
        let v = (acc + (1 << (precision - 1))) >> precision
        return UInt8(truncatingIfNeeded: v < 0 ? 0 : (v > 255 ? 255 : v))
    }

    /// Source rows `rows` into temp rows `row - firstRow`.
    static func horizontal(src: UnsafePointer<UInt8>, srcWidth: Int, rows: Range<Int>, firstRow: Int, channels c: Int,
                           kernel: Kernel, dst: UnsafeMutableBufferPointer<UInt8>, dstWidth: Int) {
        let taps = kernel.taps
        kernel.starts.withUnsafeBufferPointer { starts in
            kernel.weights.withUnsafeBufferPointer { weights in
                for r in rows {
                    let srcRow = src + r * srcWidth * c
                    let dstRow = dst.baseAddress! + (r - firstRow) * dstWidth * c
                    if c == 3 && taps == 4 {
                        // The usual case for a photo (a 1/2-scale decode shrunk by less than
                        // two): the taps unrolled, the same sums in the same order as below.
                        for x in 0..<dstWidth {
                            let p = srcRow + starts[x] * 3
                            let w = weights.baseAddress! + x * 4
                            let w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3]
                            var a0 = Int32(p[0]) &* w0
                            var a1 = Int32(p[1]) &* w0
                            var a2 = Int32(p[2]) &* w0
                            a0 &+= Int32(p[3]) &* w1
                            a1 &+= Int32(p[4]) &* w1
                            a2 &+= Int32(p[5]) &* w1
                            a0 &+= Int32(p[6]) &* w2
                            a1 &+= Int32(p[7]) &* w2
                            a2 &+= Int32(p[8]) &* w2
                            a0 &+= Int32(p[9]) &* w3
                            a1 &+= Int32(p[10]) &* w3
                            a2 &+= Int32(p[11]) &* w3
                            dstRow[3 * x] = clamp(a0)
                            dstRow[3 * x + 1] = clamp(a1)
                            dstRow[3 * x + 2] = clamp(a2)
                        }
                    } else if c == 3 {
                        for x in 0..<dstWidth {
                            var p = srcRow + starts[x] * 3
                            let w = weights.baseAddress! + x * taps
                            var a0: Int32 = 0, a1: Int32 = 0, a2: Int32 = 0
                            for t in 0..<taps {
                                let wt = w[t]
                                a0 &+= Int32(p[0]) &* wt
                                a1 &+= Int32(p[1]) &* wt
                                a2 &+= Int32(p[2]) &* wt
                                p += 3
                            }
                            dstRow[3 * x] = clamp(a0)
                            dstRow[3 * x + 1] = clamp(a1)
                            dstRow[3 * x + 2] = clamp(a2)
                        }
                    } else {
                        for x in 0..<dstWidth {
                            let p = srcRow + starts[x]
                            let w = weights.baseAddress! + x * taps
                            var a: Int32 = 0
                            for t in 0..<taps { a &+= Int32(p[t]) &* w[t] }
                            dstRow[x] = clamp(a)
                        }
                    }
                }
            }
        }
    }

    static func vertical(src: UnsafeBufferPointer<UInt8>, firstRow: Int, rowWidth: Int, kernel: Kernel,
                         dst: UnsafeMutableBufferPointer<UInt8>, rows: Range<Int>) {
        let taps = kernel.taps
        var acc = [Int32](repeating: 0, count: rowWidth)
        acc.withUnsafeMutableBufferPointer { acc in
            kernel.weights.withUnsafeBufferPointer { weights in
                for y in rows {
                    let first = kernel.starts[y] - firstRow
                    for i in 0..<rowWidth { acc[i] = 0 }
                    // Row-at-a-time accumulation keeps memory access sequential (and vectorisable).
                    for t in 0..<taps {
                        let wt = weights[y * taps + t]
                        if wt == 0 { continue }
                        let row = src.baseAddress! + (first + t) * rowWidth
                        for i in 0..<rowWidth { acc[i] &+= Int32(row[i]) &* wt }
                    }
                    let out = dst.baseAddress! + y * rowWidth
                    for i in 0..<rowWidth { out[i] = clamp(acc[i]) }
                }
            }
        }
    }
}
