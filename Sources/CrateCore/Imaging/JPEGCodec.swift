import CJpeg
import Foundation

/// What a JPEG header says, read without decoding any pixels.
public struct JPEGHeader: Equatable, Sendable {
    public enum ColorSpace: Sendable { case gray, rgb, ycbcr, cmyk, ycck }

    public let width: Int
    public let height: Int
    public let components: Int
    public let colorSpace: ColorSpace
    public let isProgressive: Bool
    /// EXIF orientation 1–8 (1 when absent).
    public let orientation: ExifOrientation
    /// DCT scale numerator (over 8) chosen for the requested size, and the size it decodes to.
    public let scaleNumerator: Int
    public let scaledWidth: Int
    public let scaledHeight: Int
}

/// Swift face of the CJpeg wrapper. Stateless; safe to call from any thread.
public enum JPEGCodec {
    /// Reads the header. `minShortSide` picks the smallest DCT scale whose shorter side is still
    /// at least that many pixels (0 = full size).
    public static func probe(_ data: Data, minShortSide: Int = 0, powerOfTwoOnly: Bool = false) throws -> JPEGHeader {
        var info = crate_jpeg_info()
        var error = crate_jpeg_error()
        let status = data.withUnsafeBytes { raw -> crate_jpeg_status in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return CRATE_JPEG_BAD_ARGUMENT }
            return crate_jpeg_probe(base, raw.count, Int32(minShortSide), powerOfTwoOnly ? 1 : 0, &info, &error)
        }
        if status == CRATE_JPEG_TOO_LARGE { throw ImageError.tooLarge(width: Int(info.width), height: Int(info.height)) }
        if status != CRATE_JPEG_OK { throw mapError(status, error) }
        return JPEGHeader(
            width: Int(info.width), height: Int(info.height), components: Int(info.components),
            colorSpace: colorSpace(info.color_space), isProgressive: info.progressive != 0,
            orientation: ExifOrientation(rawValue: Int(info.orientation)) ?? .up,
            scaleNumerator: Int(info.scale_num),
            scaledWidth: Int(info.scaled_width), scaledHeight: Int(info.scaled_height))
    }

    /// Decodes to RGB at the scale chosen by `probe` (no EXIF orientation applied here).
    public static func decode(_ data: Data, header: JPEGHeader, fast: Bool = false) throws -> RGBImage {
        let count = header.scaledWidth * header.scaledHeight * 3
        var width: Int32 = 0
        var height: Int32 = 0
        var error = crate_jpeg_error()
        var status = CRATE_JPEG_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            status = data.withUnsafeBytes { raw -> crate_jpeg_status in
                guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let dest = out.baseAddress else {
                    return CRATE_JPEG_BAD_ARGUMENT
                }
                return crate_jpeg_decode_rgb(base, raw.count, Int32(header.scaleNumerator), fast ? 1 : 0,
                                             dest, count, &width, &height, &error)
            }
            // On failure the bytes are garbage but initialised memory is still required by Swift.
            if status != CRATE_JPEG_OK { out.initialize(repeating: 0) }
            initialized = count
        }
        if status != CRATE_JPEG_OK { throw mapError(status, error) }
        guard Int(width) == header.scaledWidth, Int(height) == header.scaledHeight else {
            throw ImageError.damaged(detail: "decoded size differs from header")
        }
        return RGBImage(width: header.scaledWidth, height: header.scaledHeight, pixels: pixels)
    }

    /// Decodes into `out` (which must hold `scaledWidth × scaledHeight × 3` bytes) while
    /// publishing completed rows to `progress`, so another thread can use them as they come.
    /// `progress` is always ended, also when decoding fails.
    static func decode(_ data: Data, header: JPEGHeader, fast: Bool, into out: UnsafeMutableBufferPointer<UInt8>,
                       progress: RowProgress) throws {
        var width: Int32 = 0
        var height: Int32 = 0
        var error = crate_jpeg_error()
        let context = Unmanaged.passUnretained(progress).toOpaque()
        let status = data.withUnsafeBytes { raw -> crate_jpeg_status in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let dest = out.baseAddress else {
                return CRATE_JPEG_BAD_ARGUMENT
            }
            return crate_jpeg_decode_rgb_rows(base, raw.count, Int32(header.scaleNumerator), fast ? 1 : 0,
                                              dest, out.count, &width, &height, &error, { context, rows in
                Unmanaged<RowProgress>.fromOpaque(context!).takeUnretainedValue().publish(Int(rows))
            }, context)
        }
        let ok = status == CRATE_JPEG_OK && Int(width) == header.scaledWidth && Int(height) == header.scaledHeight
        progress.end(failed: !ok)
        if status != CRATE_JPEG_OK { throw mapError(status, error) }
        guard ok else { throw ImageError.damaged(detail: "decoded size differs from header") }
    }

    /// Probes and decodes in one go.
    public static func decode(_ data: Data, minShortSide: Int = 0, fast: Bool = false) throws -> (RGBImage, JPEGHeader) {
        let header = try probe(data, minShortSide: minShortSide)
        return (try decode(data, header: header, fast: fast), header)
    }

    /// Encodes an RGB (or grey) image as a baseline JPEG.
    public static func encode(_ image: RGBImage, quality: Int = 85) throws -> Data {
        let rgb = image.channels == 3 ? image : image.expandedToRGB()
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = crate_jpeg_error()
        let status = rgb.pixels.withUnsafeBufferPointer { buffer in
            crate_jpeg_encode_rgb(buffer.baseAddress, Int32(rgb.width), Int32(rgb.height), Int32(quality), &out, &size, &error)
        }
        defer { crate_jpeg_free(out) }
        guard status == CRATE_JPEG_OK, let out else {
            throw ImageError.encodingFailed(message(error))
        }
        return Data(bytes: out, count: size)
    }

    // MARK: - Private

    private static func colorSpace(_ value: crate_jpeg_colorspace) -> JPEGHeader.ColorSpace {
        switch value {
        case CRATE_JPEG_CS_GRAY: return .gray
        case CRATE_JPEG_CS_RGB: return .rgb
        case CRATE_JPEG_CS_CMYK: return .cmyk
        case CRATE_JPEG_CS_YCCK: return .ycck
        default: return .ycbcr
        }
    }

    private static func message(_ error: crate_jpeg_error) -> String {
        withUnsafeBytes(of: error.message) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }

    private static func mapError(_ status: crate_jpeg_status, _ error: crate_jpeg_error) -> ImageError {
        switch status {
        case CRATE_JPEG_NOT_JPEG:
            return .notAnImage
        case CRATE_JPEG_TOO_LARGE:
            return .tooLarge(width: 0, height: 0)
        case CRATE_JPEG_TOO_MANY_SCANS:
            return .tooManyScans
        case CRATE_JPEG_UNSUPPORTED:
            return .unsupportedFormat("JPEG variant: \(message(error))")
        default:
            return .damaged(detail: message(error))
        }
    }
}

extension RGBImage {
    /// A grey image repeated into three channels.
    func expandedToRGB() -> RGBImage {
        guard channels == 1 else { return self }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            rgb[3 * i] = pixels[i]
            rgb[3 * i + 1] = pixels[i]
            rgb[3 * i + 2] = pixels[i]
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: rgb)
    }
}
