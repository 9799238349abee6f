/// EXIF orientation: how the stored pixels must be transformed to display upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// True when displaying swaps width and height (5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// Source pixel for displayed pixel (x', y') is `base + x'·dx + y'·dy` (in pixels) of the stored image.
    func strides(width w: Int, height h: Int) -> (base: Int, dx: Int, dy: Int) {
        switch self {
        case .up: return (0, 1, w)
        case .upMirrored: return (w - 1, -1, w)
        case .down: return ((h - 1) * w + w - 1, -1, -w)
        case .downMirrored: return ((h - 1) * w, 1, -w)
        case .leftMirrored: return (0, w, 1)
        case .right: return ((h - 1) * w, -w, 1)
        case .rightMirrored: return ((h - 1) * w + w - 1, -w, -1)
        case .left: return (w - 1, w, -1)
        }
    }

    /// Maps a point of the displayed image (continuous coordinates) to the stored image of size w×h.
    func storedPoint(x: Double, y: Double, width w: Double, height h: Double) -> (Double, Double) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - x, y)
        case .down: return (w - x, h - y)
        case .downMirrored: return (x, h - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - x)
        case .rightMirrored: return (w - y, h - x)
        case .left: return (w - y, x)
        }
    }

    /// The inverse of `storedPoint`: a point of the stored image (size w×h) on the displayed one.
    func displayPoint(x: Double, y: Double, width w: Double, height h: Double) -> (Double, Double) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - x, y)
        case .down: return (w - x, h - y)
        case .downMirrored: return (x, h - y)
        case .leftMirrored: return (y, x)
        case .right: return (h - y, x)
        case .rightMirrored: return (h - y, w - x)
        case .left: return (y, w - x)
        }
    }
}

extension RGBImage {
    /// The image as it should be displayed for this EXIF orientation.
    public func oriented(_ orientation: ExifOrientation) -> RGBImage {
        if orientation == .up { return self }
        let outW = orientation.swapsDimensions ? height : width
        let outH = orientation.swapsDimensions ? width : height
        let (base, dx, dy) = orientation.strides(width: width, height: height)
        let c = channels
        let count = outW * outH * c
        let out = [UInt8](unsafeUninitializedCapacity: count) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                var o = 0
                for y in 0..<outH {
                    var s = base + y * dy
                    for _ in 0..<outW {
                        let si = s * c
                        for k in 0..<c { dst[o + k] = src[si + k] }
                        o += c
                        s += dx
                    }
                }
            }
            initialized = count
        }
        return RGBImage(width: outW, height: outH, channels: c, pixels: out)
    }
}
