import Foundation

/// A MusicBrainz identifier, validated as a UUID (8-4-4-4-12 hex digits) and lower-cased.
///
/// Identifiers arrive from the network and from model output; only an `MBID` may be put into a
/// URL or a file name, so `../etc/passwd` can never reach either.
public struct MBID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Throws `MBIDError.invalid` for anything that is not a UUID.
    public init(_ string: String) throws {
        let candidate = string.lowercased()
        guard MBID.isValid(candidate) else { throw MBIDError.invalid(string) }
        rawValue = candidate
    }

    /// Nil instead of an error, for optional fields in lenient decoding.
    public init?(validating string: String?) {
        guard let string, let id = try? MBID(string) else { return nil }
        self = id
    }

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    private static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) else { return false }
            }
        }
        return true
    }
}

/// An identifier that is not a MusicBrainz ID.
public enum MBIDError: Error, Equatable, Sendable, LocalizedError {
    case invalid(String)

    public var errorDescription: String? {
        switch self {
        case .invalid: return "That is not a valid MusicBrainz identifier."
        }
    }
}

extension Album {
    /// The album's page on MusicBrainz ("Open in MusicBrainz"): its release group (every edition
    /// of the album), else the release that was identified; nil when it has no valid MBID.
    public var musicBrainzPage: URL? {
        if let group = MBID(validating: musicBrainzReleaseGroupID) {
            return URL(string: "https://musicbrainz.org/release-group/\(group)")
        }
        if let release = MBID(validating: musicBrainzReleaseID) {
            return URL(string: "https://musicbrainz.org/release/\(release)")
        }
        return nil
    }
}
