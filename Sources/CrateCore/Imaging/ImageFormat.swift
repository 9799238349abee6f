import Foundation

/// Image formats recognised by their first bytes; the file name is never trusted.
public enum ImageFormat: String, Equatable, Sendable {
    case jpeg = "JPEG"
    case png = "PNG"
    case gif = "GIF"
    case webp = "WebP"
    case heic = "HEIC"
    case bmp = "BMP"
    case tiff = "TIFF"

    /// The format named by the magic bytes, or nil for anything else.
    public static func sniff(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = String(decoding: head.count >= 12 ? head[8..<12] : [], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "heim", "heis", "avif"].contains(brand) { return .heic }
        }
        if starts([0x42, 0x4D]) && head.count >= 14 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        return nil
    }
}
