/// File names on Linux are bytes, not text: a photo copied from an old camera card can be called
/// `caf\xFF.jpg`, which is not UTF-8. Swift's `String` and Foundation's `URL` replace such bytes
/// with U+FFFD, after which the file "does not exist". Crate keeps them instead, by spelling each
/// byte that is not part of valid UTF-8 as one of the last 128 code points of Unicode
/// (U+10FF80–U+10FFFF, private use): the path stays a `String` (it fits a `URL`, the batch queue's
/// text column and JSON) and `bytes(of:)` gives the exact bytes back when the file is opened.
///
/// A real name that itself uses those private-use code points is read literally as a fallback
/// (see `ImageFile`), so nothing that used to open stops opening.
public enum PathBytes {
    /// The code point standing for byte 0x80; byte `b` (≥ 0x80) is `base + (b - 0x80)`.
    static let base: UInt32 = 0x10FF80

    /// The path for these bytes: valid UTF-8 decoded as usual, every other byte kept as its stand-in.
    public static func string(from bytes: [UInt8]) -> String {
        // Almost every name is valid UTF-8: decode it in one go.
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    // Only bytes ≥ 0x80 can be invalid: ASCII always decodes.
                    scalars.append(Unicode.Scalar(base + UInt32(byte) - 0x80) ?? "\u{FFFD}")
                }
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The bytes a path stands for: its UTF-8, with every stand-in turned back into its byte.
    public static func bytes(of path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// True when the path holds bytes that are not UTF-8.
    public static func hasRawBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains { rawByte($0) != nil }
    }

    /// The byte a stand-in code point spells, or nil for any other scalar.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        guard scalar.value >= base else { return nil }
        return UInt8(scalar.value - base + 0x80)
    }
}
