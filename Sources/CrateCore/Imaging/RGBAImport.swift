import Foundation

/// Turns pixels the desktop decoded itself (a pasted image, a PNG or WebP dropped on the window,
/// read through GdkTexture) into the JPEG the scan pipeline takes.
public enum RGBAImport {
    /// Pillow's decompression-bomb limit, as for JPEG files (CRATE_JPEG_MAX_PIXELS).
    /// Straight-alpha RGBA, row-major, tightly packed. Transparent areas are put on white, as a
    /// cover on a page would look.
    public static func jpeg(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int, quality: Int = 92) throws -> Data {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { throw ImageError.notAnImage }
        guard width * height <= 89_478_485 else { throw ImageError.tooLarge(width: width, height: height) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for i in 0..<(width * height) {
                let a = Int(rgba[i * 4 + 3])
                for c in 0..<3 {
                    out[i * 3 + c] = UInt8((Int(rgba[i * 4 + c]) * a + 255 * (255 - a)) / 255)
                }
            }
        }
        return try JPEGCodec.encode(RGBImage(width: width, height: height, pixels: rgb), quality: quality)
    }
}
