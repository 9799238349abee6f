/// An 8-bit image in memory: packed RGB (3 channels) or grey (1 channel), rows top to bottom.
public struct RGBImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Bytes per pixel: 3 for RGB, 1 for grey.
    public let channels: Int
    /// `width × height × channels` bytes.
    public let pixels: [UInt8]

    /// An image over existing pixels; `pixels.count` must equal `width × height × channels`.
    public init(width: Int, height: Int, channels: Int = 3, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && (channels == 1 || channels == 3))
        precondition(pixels.count == width * height * channels)
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The RGB value at (x, y); grey images repeat the grey level.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * channels
        if channels == 1 { return (pixels[i], pixels[i], pixels[i]) }
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// The rectangle at (`x`, `y`) of `width` × `height` pixels, which must lie inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height)
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        let rowBytes = width * channels
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let from = ((y + row) * self.width + x) * channels
                    target.baseAddress!.advanced(by: row * rowBytes).update(from: source.baseAddress! + from, count: rowBytes)
                }
            }
        }
        return RGBImage(width: width, height: height, channels: channels, pixels: out)
    }

    /// Luma (BT.601, the JPEG weights) as a one-channel image.
    public func grayscale() -> RGBImage {
        if channels == 1 { return self }
        let count = width * height
        let grey = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            pixels.withUnsafeBufferPointer { src in
                for i in 0..<count {
                    let r = UInt32(src[3 * i]), g = UInt32(src[3 * i + 1]), b = UInt32(src[3 * i + 2])
                    // 19595/38470/7471 are 0.299/0.587/0.114 in 16-bit fixed point.
                    out[i] = UInt8(truncatingIfNeeded: (19595 * r + 38470 * g + 7471 * b + 32768) >> 16)
                }
            }
            initialized = count
        }
        return RGBImage(width: width, height: height, channels: 1, pixels: grey)
    }
}

/// A rectangle in pixel coordinates.
public struct PixelRect: Equatable, Sendable {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A crop rectangle in normalised coordinates (0…1 of the oriented image's width and height).
public struct NormalizedRect: Equatable, Sendable {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
