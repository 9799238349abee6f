import Foundation

/// The JSON shape of a review for `crate review --json` and the `review` field of `crate scan --json`.
public enum ReviewJSON {
    /// `context_summary`, `context_bullets`, `rating`, `recommendation`, `key_tracks`, plus `tier`,
    /// `cached`, `prompt_version`, `used_search`, `provider`, `model`, `generated_at`.
    public static func object(_ result: ReviewResult) -> [String: Any] {
        let review = result.review
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return [
            "context_summary": review.summary,
            "context_bullets": review.bullets,
            "rating": review.rating,
            "recommendation": review.recommendation,
            "key_tracks": review.keyTracks,
            "tier": review.tier,
            "cached": result.cached,
            "prompt_version": review.promptVersion,
            "used_search": review.usedSearch,
            "provider": review.provider,
            "model": review.model,
            "generated_at": formatter.string(from: review.generatedAt),
        ]
    }

    /// `{"status":"unavailable","title":…,"message":…,"tip":…}`: the failure state as data.
    public static func unavailable(_ error: ReviewError) -> [String: Any] {
        var object: [String: Any] = ["status": "unavailable", "title": error.title, "message": error.message]
        if let tip = error.tip { object["tip"] = tip }
        if error.needsSettings { object["settings"] = true }
        return object
    }

    /// Pretty, key-sorted, slashes unescaped.
    public static func render(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        // Review text comes from a model: C1 and bidirectional controls are escaped like C0.
        return TerminalText.json(data)
    }
}
