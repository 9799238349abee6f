import Foundation

/// Why a model's review could not be used.
public enum ReviewOutputError: Error, Equatable, Sendable {
    case notJSON
    case missingField(String)
    case ratingOutOfRange(Double)
    case tooFewBullets(Int)
    case unknownRecommendation(String)
    case tooFewKeyTracks(Int)
    /// Money talk survived the regeneration and could not be removed.
    case moneyTalk

    public var detail: String {
        switch self {
        case .notJSON: return "the answer was not a JSON object"
        case .missingField(let key): return "the answer has no \(key)"
        case .ratingOutOfRange(let value): return "the rating \(value) is outside 0–10"
        case .tooFewBullets(let count): return "the answer has \(count) bullets (3 needed)"
        case .unknownRecommendation(let label): return "\"\(label.prefix(60))\" is not a recommendation label"
        case .tooFewKeyTracks(let count): return "the answer has \(count) key tracks (3 needed)"
        case .moneyTalk: return "the answer kept talking about money"
        }
    }
}

/// A validated review as the model wrote it (before it gets its key, model and time).
public struct ReviewDraft: Equatable, Sendable {
    public static let bulletRange = 3...5
    public static let keyTrackRange = 3...7

    public let summary: String
    public let bullets: [String]
    /// 0–10, one decimal.
    public let rating: Double
    /// One of the 24 labels, canonically spelled.
    public let recommendation: String
    public let tier: Int
    public let keyTracks: [String]

    public init(summary: String, bullets: [String], rating: Double, recommendation: String, tier: Int, keyTracks: [String]) {
        self.summary = summary
        self.bullets = bullets
        self.rating = rating
        self.recommendation = recommendation
        self.tier = tier
        self.keyTracks = keyTracks
    }

    /// Parses and repairs model output: fences and surrounding prose are ignored, numbers given as
    /// strings coerced, labels matched case-insensitively, extra bullets (> 5) and tracks (> 7)
    /// trimmed. What cannot be repaired throws `ReviewOutputError`.
    public static func parse(_ text: String) throws -> ReviewDraft {
        let object: [String: Any]
        do {
            object = try LenientJSON.object(in: text)
        } catch {
            throw ReviewOutputError.notJSON
        }
        guard let summary = LenientJSON.string(object["context_summary"]) else {
            throw ReviewOutputError.missingField("context_summary")
        }
        let bullets = LenientJSON.strings(object["context_bullets"]).map(stripBulletMarker).filter { !$0.isEmpty }
        guard bullets.count >= bulletRange.lowerBound else { throw ReviewOutputError.tooFewBullets(bullets.count) }

        guard object["rating"] != nil else { throw ReviewOutputError.missingField("rating") }
        guard let rawRating = LenientJSON.double(object["rating"]) else { throw ReviewOutputError.missingField("rating") }
        guard (0...10).contains(rawRating) else { throw ReviewOutputError.ratingOutOfRange(rawRating) }

        guard let rawLabel = LenientJSON.string(object["recommendation"]) else {
            throw ReviewOutputError.missingField("recommendation")
        }
        guard let (label, tier) = RecommendationTiers.match(rawLabel) else {
            throw ReviewOutputError.unknownRecommendation(rawLabel)
        }

        let tracks = LenientJSON.strings(object["key_tracks"])
        guard tracks.count >= keyTrackRange.lowerBound else { throw ReviewOutputError.tooFewKeyTracks(tracks.count) }

        return ReviewDraft(
            summary: summary,
            bullets: Array(bullets.prefix(bulletRange.upperBound)),
            rating: (rawRating * 10).rounded() / 10,
            recommendation: label,
            tier: tier,
            keyTracks: Array(tracks.prefix(keyTrackRange.upperBound))
        )
    }

    /// The same draft with other bullets and key tracks (after dropping money talk).
    func replacing(bullets: [String], keyTracks: [String]) -> ReviewDraft {
        ReviewDraft(summary: summary, bullets: bullets, rating: rating, recommendation: recommendation, tier: tier, keyTracks: keyTracks)
    }

    /// Models sometimes keep their own "• " or "- " in front of a bullet.
    private static func stripBulletMarker(_ text: String) -> String {
        var result = Substring(text)
        while let first = result.first, ["•", "-", "*", "–"].contains(first) {
            result = result.dropFirst().drop(while: { $0 == " " })
        }
        return String(result).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ReviewOutputError: LocalizedError {
    /// The same sentence as `ReviewError.invalidOutput`, should this error reach the user alone.
    public var errorDescription: String? { "The review that came back could not be used: \(detail)." }
}
