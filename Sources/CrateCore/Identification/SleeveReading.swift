import Foundation

/// What `identify-v2` reads off a sleeve besides the artist and title: the catalogue number, the
/// barcode digits, a format hint and the track titles. Everything is sanitised on the way in (by
/// the parser, the initialiser and the decoder alike): wrong types and placeholders become nil,
/// text is trimmed and capped, the barcode is digits only, the track list is capped. Whether a
/// barcode's check digit is right is decided later, by `Barcode`, before it nears a query.
public struct SleeveReading: Equatable, Sendable, Codable {
    public static let maxTrackTitles = 30
    public static let maxTrackTitleLength = 200
    static let maxCatalogNumberLength = 60
    static let maxFormatLength = 40

    /// As printed ("K 56344"); MusicBrainz's `catno` ignores case, spaces and separators.
    public var catalogNumber: String?
    /// Digits only (spaces and hyphens removed); nil when anything else was there.
    public var barcode: String?
    /// "vinyl", "CD", "cassette", "7\" single", "12\" EP"…, as the model said it.
    public var format: String?
    /// In sleeve order, at most `maxTrackTitles`, each at most `maxTrackTitleLength` characters.
    public var trackTitles: [String]

    public init(catalogNumber: String? = nil, barcode: String? = nil, format: String? = nil, trackTitles: [String] = []) {
        self.catalogNumber = Self.text(catalogNumber, max: Self.maxCatalogNumberLength)
        self.barcode = Self.digits(barcode)
        self.format = Self.text(format, max: Self.maxFormatLength)
        self.trackTitles = Self.titles(trackTitles)
    }

    /// Nothing was read beyond the artist and title.
    public var isEmpty: Bool { catalogNumber == nil && barcode == nil && format == nil && trackTitles.isEmpty }

    /// The format hint says single or EP (`7"`, "single", "EP", "45"): then the track titles are
    /// worth a recording search even when the title search went well enough to stop at.
    public var looksLikeSingleOrEP: Bool {
        guard let format = format?.lowercased() else { return false }
        let words = format.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "\"" && $0 != "”" })
        return words.contains { ["single", "ep", "7\"", "7”", "45", "maxi"].contains(String($0)) }
            || format.contains("7 inch") || format.contains("7-inch") || format.contains("7in")
    }

    /// These fields, with the missing ones taken from `other` (a search call's answer keeps what
    /// the first look read on the same sleeve).
    public func filling(from other: SleeveReading) -> SleeveReading {
        SleeveReading(
            catalogNumber: catalogNumber ?? other.catalogNumber,
            barcode: barcode ?? other.barcode,
            format: format ?? other.format,
            trackTitles: trackTitles.isEmpty ? other.trackTitles : trackTitles
        )
    }

    // MARK: - Reading

    /// From a model's JSON object (`catalog_number`, `barcode`, `format`, `track_titles`).
    init(object: [String: Any]) {
        // A catalogue number or barcode may come back as a JSON number; a track title must be text.
        let tracks = (object["track_titles"] as? [Any] ?? []).compactMap { $0 as? String }
        self.init(
            catalogNumber: LenientJSON.string(object["catalog_number"]),
            barcode: LenientJSON.string(object["barcode"]),
            format: object["format"] as? String,
            trackTitles: tracks
        )
    }

    private enum CodingKeys: String, CodingKey {
        case catalogNumber, barcode, format, trackTitles
    }

    /// Lenient: a missing or mistyped field is nil / empty, never a failure.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            catalogNumber: (try? c.decodeIfPresent(String.self, forKey: .catalogNumber)) ?? nil,
            barcode: (try? c.decodeIfPresent(String.self, forKey: .barcode)) ?? nil,
            format: (try? c.decodeIfPresent(String.self, forKey: .format)) ?? nil,
            trackTitles: (try? c.decodeIfPresent([String].self, forKey: .trackTitles)) ?? []
        )
    }

    // MARK: - Sanitising

    private static let placeholders: Set<String> = ["null", "none", "unknown", "n/a", "-", "?", "unreadable", "illegible"]

    /// Trimmed, control characters and runs of whitespace as one space, capped; placeholders nil.
    static func text(_ value: String?, max: Int) -> String? {
        guard let value else { return nil }
        let cleaned = value.unicodeScalars
            .map { CharacterSet.controlCharacters.contains($0) ? " " : String($0) }
            .joined()
            .split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        guard !cleaned.isEmpty, !placeholders.contains(cleaned.lowercased()) else { return nil }
        return String(cleaned.prefix(max))
    }

    /// Digits only, spaces and hyphens dropped; nil when anything else was there or the length
    /// cannot be a retail barcode's (6–14 digits).
    static func digits(_ value: String?) -> String? {
        guard let value else { return nil }
        let kept = value.filter { !$0.isWhitespace && $0 != "-" }
        guard (6...14).contains(kept.count), kept.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return kept
    }

    static func titles(_ values: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for value in values {
            guard out.count < maxTrackTitles else { break }
            guard let title = text(value, max: maxTrackTitleLength), seen.insert(title.lowercased()).inserted else { continue }
            out.append(title)
        }
        return out
    }
}
