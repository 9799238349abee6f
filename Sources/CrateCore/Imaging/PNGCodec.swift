import CJpeg
import Foundation

/// PNG artwork (the Cover Art Archive holds some) read through libpng, so it can be prepared
/// like a JPEG. Photos the user scans stay JPEG only.
enum PNGCodec {
    /// 8-bit RGB pixels; transparency is composited on white. The pixel cap is checked from the
    /// header before anything is allocated.
    static func decode(_ data: Data) throws -> RGBImage {
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0
        var height: UInt32 = 0
        let probed = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return crate_png_probe(base, raw.count, &width, &height, &message, message.count)
        }
        guard probed == 0 else { throw ImageError.damaged(detail: Self.text(message)) }
        guard width > 0, height > 0 else { throw ImageError.damaged(detail: "a PNG with no pixels") }
        guard UInt64(width) * UInt64(height) <= UInt64(CRATE_JPEG_MAX_PIXELS) else {
            throw ImageError.tooLarge(width: Int(width), height: Int(height))
        }
        let count = Int(width) * Int(height) * 3
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            status = data.withUnsafeBytes { raw -> Int32 in
                guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let dest = out.baseAddress else { return -1 }
                return crate_png_decode_rgb(base, raw.count, dest, count, &message, message.count)
            }
            if status != 0 { out.initialize(repeating: 0) }
            initialized = count
        }
        guard status == 0 else { throw ImageError.damaged(detail: Self.text(message)) }
        return RGBImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
