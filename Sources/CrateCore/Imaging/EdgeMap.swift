import Foundation

/// A small colour edge map of a photo: Sobel gradients on a box-shrunk copy (~336 px on the long
/// side), the input to `QuadFinder`. Colour matters: a purple cover on a purple-striped table
/// can have almost the same luma as its background.
struct EdgeMap {
    let width: Int
    let height: Int
    /// Stored-image pixels per edge-map pixel.
    let factor: Int
    /// Gradient magnitude (|gx| + |gy| of the strongest channel), 0 on the border.
    let magnitude: [Int32]
    /// Gradient direction in whole degrees, 0..<180 (the normal of the edge, sign dropped).
    let angle: [UInt8]

    /// Edges weaker than this (a step of ~12 levels over the Sobel kernel) are lighting and noise.
    static let threshold: Int32 = 48

    /// 336: a 12 MP photo decoded at 1/2 (2016 px) shrinks by 6, the size that found the most
    /// covers in calibration (`crate-bench calibrate`; 320 found one fewer).
    init(_ image: RGBImage, longSide: Int = 336) {
        var shrinker = Shrinker(width: image.width, height: image.height, channels: image.channels, longSide: longSide)
        image.pixels.withUnsafeBufferPointer { shrinker.add(0..<image.height, pixels: $0.baseAddress!) }
        self.init(shrinker)
    }

    /// The edge map of a shrunk copy built row by row (see `Shrinker`).
    init(_ shrinker: Shrinker) {
        let small = shrinker.averages()
        let w = shrinker.outWidth, h = shrinker.outHeight, f = shrinker.factor
        var magnitude = [Int32](repeating: 0, count: w * h)
        var angle = [UInt8](repeating: 0, count: w * h)
        let c = shrinker.channels
        small.withUnsafeBufferPointer { p in
            magnitude.withUnsafeMutableBufferPointer { mag in
                angle.withUnsafeMutableBufferPointer { ang in
                    for y in 1..<(h - 1) {
                        for x in 1..<(w - 1) {
                            var best: Int32 = 0, bx: Int32 = 0, by: Int32 = 0
                            let up = p.baseAddress! + ((y - 1) * w + x) * c, mid = up + w * c, down = mid + w * c
                            for k in 0..<c {
                                let gx = up[k + c] + 2 * mid[k + c] + down[k + c] - up[k - c] - 2 * mid[k - c] - down[k - c]
                                let gy = down[k - c] + 2 * down[k] + down[k + c] - up[k - c] - 2 * up[k] - up[k + c]
                                let m = abs(gx) + abs(gy)
                                if m > best { best = m; bx = gx; by = gy }
                            }
                            let i = y * w + x
                            mag[i] = best
                            // atan2 only where it is used: edge pixels are a small fraction.
                            if best >= Self.threshold {
                                var deg = Int((atan2(Double(by), Double(bx)) * 180 / .pi).rounded())
                                if deg < 0 { deg += 180 }
                                ang[i] = UInt8(deg % 180)
                            }
                        }
                    }
                }
            }
        }
        self.width = w
        self.height = h
        self.factor = f
        self.magnitude = magnitude
        self.angle = angle
    }

    /// Box-averages `factor × factor` blocks, reading every other row and column of each block:
    /// edges at this scale survive the subsampling, and it halves the cost on a 3 MP decode.
    /// Rows can be added as they are decoded.
    struct Shrinker {
        let sourceWidth: Int
        let channels: Int
        let factor: Int
        let outWidth: Int
        let outHeight: Int
        private let step: Int
        private var sums: [Int32]

        init(width: Int, height: Int, channels: Int, longSide: Int = 336) {
            let f = max(1, (max(width, height) + longSide - 1) / longSide)
            sourceWidth = width
            self.channels = channels
            factor = f
            outWidth = max(3, width / f)
            outHeight = max(3, height / f)
            step = f >= 4 ? 2 : 1
            sums = [Int32](repeating: 0, count: outWidth * outHeight * channels)
        }

        /// Adds source rows `rows` (any order, each once).
        mutating func add(_ rows: Range<Int>, pixels: UnsafePointer<UInt8>) {
            let c = channels, f = factor, w = outWidth, step = step
            let width = min(w * f, sourceWidth)  // Columns past the last whole block are ignored.
            sums.withUnsafeMutableBufferPointer { dst in
                for sy in rows {
                    let oy = sy / f
                    guard oy < outHeight, (sy - oy * f) % step == 0 else { continue }
                    let row = dst.baseAddress! + oy * w * c
                    let line = pixels + sy * sourceWidth * c
                    for ox in 0..<(width / f) {
                        var p = line + ox * f * c
                        let o = row + ox * c
                        for _ in stride(from: 0, to: f, by: step) {
                            for k in 0..<c { o[k] &+= Int32(p[k]) }
                            p += step * c
                        }
                    }
                }
            }
        }

        /// The block averages, once every row has been added.
        func averages() -> [Int32] {
            let taps = Int32(((factor + step - 1) / step) * ((factor + step - 1) / step))
            return sums.map { $0 / taps }
        }
    }

    /// Whether (x, y) or a pixel beside it across the line is an edge whose normal is within
    /// `tolerance` degrees of `normal` (whole degrees, 0..<180); `step` is the unit pixel step
    /// across the line.
    @inline(__always)
    func supports(x: Double, y: Double, normal n: Int, step: (dx: Int, dy: Int), tolerance: Int) -> Bool {
        let cx = x.roundedInt, cy = y.roundedInt
        for offset in -1...1 {
            let px = cx + offset * step.dx, py = cy + offset * step.dy
            guard px >= 1, py >= 1, px < width - 1, py < height - 1 else { continue }
            let i = py * width + px
            if magnitude[i] < Self.threshold { continue }
            let d = abs(Int(angle[i]) - n)
            if min(d, 180 - d) <= tolerance { return true }
        }
        return false
    }
}
