import Foundation

/// How sure the model is of the text it read on the cover.
public enum TextConfidence: String, Codable, Sendable, Comparable {
    case low, medium, high

    public static func < (a: TextConfidence, b: TextConfidence) -> Bool {
        let order: [TextConfidence] = [.low, .medium, .high]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}

/// One identification answer (ID call 1 or 2), parsed leniently from the model's text.
public struct IdentificationAnswer: Equatable, Sendable, Codable {
    public let artist: String
    public let album: String
    public let year: String?
    public let label: String?
    public let readableText: String
    public let textConfidence: TextConfidence
    public let searchNeeded: Bool
    /// 0–1.
    public let confidence: Double
    /// What `identify-v2` also reads off the sleeve (nil / empty from v1 and the search call).
    public var sleeve: SleeveReading

    public init(artist: String, album: String, year: String?, label: String?, readableText: String, textConfidence: TextConfidence, searchNeeded: Bool, confidence: Double, sleeve: SleeveReading = SleeveReading()) {
        self.artist = artist
        self.album = album
        self.year = year
        self.label = label
        self.readableText = readableText
        self.textConfidence = textConfidence
        self.searchNeeded = searchNeeded
        self.confidence = confidence
        self.sleeve = sleeve
    }

    /// An empty artist or album means the model could not tell.
    public var isIdentified: Bool { !artist.isEmpty && !album.isEmpty }

    /// Parses `artist, album, year, label, readable_text, text_confidence, search_needed,
    /// confidence` (and v2's `catalog_number, barcode, format, track_titles`) from model output: fences and prose are ignored, a year may be a number, a
    /// confidence may be "0.8" or "80%", and a missing optional field takes a safe default.
    public static func parse(_ text: String) throws -> IdentificationAnswer {
        let object: [String: Any]
        do {
            object = try LenientJSON.object(in: text)
        } catch {
            throw IdentificationError.unreadableAnswer
        }
        let placeholders: Set<String> = ["null", "none", "unknown", "n/a", "-"]
        func field(_ key: String) -> String? {
            guard let value = LenientJSON.string(object[key]), !placeholders.contains(value.lowercased()) else { return nil }
            return value
        }
        var confidence = LenientJSON.double(object["confidence"]) ?? 0
        // "80%" or 80 means a percentage.
        if confidence > 1 && confidence <= 100 { confidence /= 100 }
        confidence = min(max(confidence, 0), 1)
        var year = field("year")
        if let y = year, let match = y.range(of: #"\d{4}"#, options: .regularExpression) { year = String(y[match]) }
        return IdentificationAnswer(
            artist: field("artist") ?? "",
            album: field("album") ?? "",
            year: year,
            label: field("label"),
            readableText: LenientJSON.string(object["readable_text"]) ?? "",
            // An unrecognised confidence word counts as low, which keeps the search gate shut.
            textConfidence: field("text_confidence").flatMap { TextConfidence(rawValue: $0.lowercased()) } ?? .low,
            searchNeeded: LenientJSON.bool(object["search_needed"]) ?? false,
            confidence: confidence,
            sleeve: SleeveReading(object: object)
        )
    }
}

extension IdentificationAnswer {
    private enum CodingKeys: String, CodingKey {
        case artist, album, year, label, readableText, textConfidence, searchNeeded, confidence, sleeve
    }

    /// An answer encoded before `sleeve` existed decodes with an empty one.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            artist: try c.decode(String.self, forKey: .artist),
            album: try c.decode(String.self, forKey: .album),
            year: try c.decodeIfPresent(String.self, forKey: .year),
            label: try c.decodeIfPresent(String.self, forKey: .label),
            readableText: try c.decode(String.self, forKey: .readableText),
            textConfidence: try c.decode(TextConfidence.self, forKey: .textConfidence),
            searchNeeded: try c.decode(Bool.self, forKey: .searchNeeded),
            confidence: try c.decode(Double.self, forKey: .confidence),
            sleeve: (try? c.decodeIfPresent(SleeveReading.self, forKey: .sleeve)) ?? SleeveReading()
        )
    }
}
