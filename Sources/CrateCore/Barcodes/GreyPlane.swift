import Foundation

/// Luminance, one byte a pixel, rows packed: what ZBar scans. The barcode reader's passes are
/// made from it (half size, contrast-stretched, turned 45°).
struct GreyPlane: Sendable {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// BT.601 luma of an RGB image (a grey image is taken as it is).
    init(_ image: RGBImage) {
        if image.channels == 1 {
            self.init(width: image.width, height: image.height, pixels: image.pixels)
            return
        }
        let count = image.width * image.height
        let grey = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            image.pixels.withUnsafeBufferPointer { rgb in
                let src = rgb.baseAddress!, dst = out.baseAddress!
                // Two halves on two cores: the conversion is memory-bound and a 12 MP photo is 36 MB.
                Parallel.perform(iterations: 2) { part in
                    let start = part * count / 2, end = (part + 1) * count / 2
                    var i = start
                    while i < end {
                        let r = UInt32(src[3 * i]), g = UInt32(src[3 * i + 1]), b = UInt32(src[3 * i + 2])
                        // 0.299/0.587/0.114 in 16-bit fixed point, as RGBImage.grayscale().
                        dst[i] = UInt8(truncatingIfNeeded: (19595 &* r &+ 38470 &* g &+ 7471 &* b &+ 32768) >> 16)
                        i += 1
                    }
                }
            }
            initialized = count
        }
        self.init(width: image.width, height: image.height, pixels: grey)
    }

    /// Half the width and height, each pixel the mean of a 2×2 block.
    func halved() -> GreyPlane {
        let w = max(1, width / 2), h = max(1, height / 2)
        guard width >= 2, height >= 2 else { return self }
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!, d = out.baseAddress!
                for y in 0..<h {
                    let row0 = s + 2 * y * width, row1 = row0 + width, dst = d + y * w
                    for x in 0..<w {
                        let sum = UInt16(row0[2 * x]) &+ UInt16(row0[2 * x + 1]) &+ UInt16(row1[2 * x]) &+ UInt16(row1[2 * x + 1])
                        dst[x] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                    }
                }
            }
            initialized = w * h
        }
        return GreyPlane(width: w, height: h, pixels: out)
    }

    /// The levels stretched so that the darkest and brightest 1 % become black and white; nil
    /// when the picture already spans most of the range (the pass would see the same edges).
    func stretched() -> GreyPlane? {
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { for value in $0 { histogram[Int(value)] += 1 } }
        let tail = pixels.count / 100
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= tail { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > low, seen + histogram[high] <= tail { seen += histogram[high]; high -= 1 }
        guard high - low < 160 else { return nil }
        let span = max(1, high - low)
        let map = (0..<256).map { UInt8(clamping: ($0 - low) * 255 / span) }
        return GreyPlane(width: width, height: height, pixels: pixels.map { map[Int($0)] })
    }

    /// The picture turned 45° (nearest pixel; the corners white), and the map from a point of the
    /// turned picture back to this one.
    func rotated45() -> (GreyPlane, (Double, Double) -> (Double, Double)) {
        let c = 0.5.squareRoot()
        let side = Int((Double(width + height) * c).rounded(.up))
        let cx = Double(width) / 2, cy = Double(height) / 2, cs = Double(side) / 2
        let w = width, h = height
        // 16.16 fixed point, stepped along each row; the rows split between both cores.
        let step = Int((c * 65536).rounded())
        let out = [UInt8](unsafeUninitializedCapacity: side * side) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                let s = src.baseAddress!, d = out.baseAddress!
                // Each task writes only its own rows.
                Parallel.perform(iterations: 2) { part in
                    for v in (part * side / 2)..<((part + 1) * side / 2) {
                        // The source point of u = 0 (dx = -cs), then one step per pixel.
                        let dy = Double(v) - cs
                        var x = Int(((cx + (-cs - dy) * c) * 65536).rounded(.down))
                        var y = Int(((cy + (-cs + dy) * c) * 65536).rounded(.down))
                        let row = d + v * side
                        for u in 0..<side {
                            let xi = x >> 16, yi = y >> 16
                            row[u] = xi >= 0 && xi < w && yi >= 0 && yi < h ? s[yi * w + xi] : 255
                            x += step
                            y += step
                        }
                    }
                }
            }
            initialized = side * side
        }
        let back: (Double, Double) -> (Double, Double) = { u, v in
            let dx = u - cs, dy = v - cs
            return (cx + (dx - dy) * c, cy + (dx + dy) * c)
        }
        return (GreyPlane(width: side, height: side, pixels: out), back)
    }
}
