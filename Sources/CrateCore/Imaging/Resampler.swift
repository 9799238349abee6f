/// Separable resampling with a triangle (bilinear) filter widened by the scale factor, as Pillow
/// does: a proper low-pass filter when shrinking, plain bilinear when enlarging. Weights are
/// precomputed once per axis in 14-bit fixed point so the inner loops are integer multiply-adds.
public enum Resampler {
    /// Resizes the `crop` of `image` (in pixels, may be fractional) to `width × height`.
    public static func resize(_ image: RGBImage, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
                              width: Int, height: Int) -> RGBImage {
        let region = crop ?? (0, 0, Double(image.width), Double(image.height))
        let kx = Kernel(start: region.x, size: region.width, limit: image.width, output: width)
        let ky = Kernel(start: region.y, size: region.height, limit: image.height, output: height)
        let firstRow = ky.minSource
        let rows = ky.maxSourceEnd - firstRow
        let c = image.channels
        // Horizontal pass over only the rows the vertical pass reads.
        var temp = [UInt8](repeating: 0, count: width * rows * c)
        image.pixels.withUnsafeBufferPointer { src in
            temp.withUnsafeMutableBufferPointer { dst in
                horizontal(src: src, srcWidth: image.width, firstRow: firstRow, rows: rows, channels: c, kernel: kx, dst: dst, dstWidth: width)
            }
        }
        let count = width * height * c
        let out = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
            temp.withUnsafeBufferPointer { src in
                vertical(src: src, firstRow: firstRow, rowWidth: width * c, kernel: ky, dst: dst, rows: height)
            }
            initialized = count
        }
        return RGBImage(width: width, height: height, channels: c, pixels: out)
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

    static func horizontal(src: UnsafeBufferPointer<UInt8>, srcWidth: Int, firstRow: Int, rows: Int, channels c: Int,
                           kernel: Kernel, dst: UnsafeMutableBufferPointer<UInt8>, dstWidth: Int) {
        let taps = kernel.taps
        kernel.starts.withUnsafeBufferPointer { starts in
            kernel.weights.withUnsafeBufferPointer { weights in
                for r in 0..<rows {
                    let srcRow = src.baseAddress! + (firstRow + r) * srcWidth * c
                    let dstRow = dst.baseAddress! + r * dstWidth * c
                    if c == 3 {
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
                         dst: UnsafeMutableBufferPointer<UInt8>, rows: Int) {
        let taps = kernel.taps
        var acc = [Int32](repeating: 0, count: rowWidth)
        acc.withUnsafeMutableBufferPointer { acc in
            kernel.weights.withUnsafeBufferPointer { weights in
                for y in 0..<rows {
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
