import Foundation

/// The eight recommendation tiers and their 24 labels, spelled exactly as the product defines them
/// (docs/decisions/0004-recommendation-tiers.md).
public enum RecommendationTiers {
    public static let tiers: [(tier: Int, labels: [String])] = [
        (1, ["Essential Classic", "Genre Landmark", "Cultural Monument"]),
        (2, ["Indie Masterpiece", "Cult Essential", "Critics' Choice"]),
        (3, ["Crowd Favorite", "Radio Gold", "Crossover Success"]),
        (4, ["Deep Cut", "Surprise Excellence", "Scene Favorite"]),
        (5, ["Time Capsule", "Influential Curio", "Pioneering Effort"]),
        (6, ["Reliable Listen", "Fan Essential", "Genre Staple"]),
        (7, ["Ambitious Failure", "Divisive Work", "Uneven Effort"]),
        (8, ["Forgettable Entry", "Career Low", "Avoid Entirely"]),
    ]

    public static var allLabels: [String] { tiers.flatMap(\.labels) }

    /// The canonical label and its tier for a model's label: case-insensitive, whitespace and
    /// apostrophe variants tolerated ("critics’ choice", "ESSENTIAL  CLASSIC"). Nil when unknown.
    public static func match(_ raw: String) -> (label: String, tier: Int)? {
        let wanted = fold(raw)
        for (tier, labels) in tiers {
            if let label = labels.first(where: { fold($0) == wanted }) { return (label, tier) }
        }
        return nil
    }

    private static func fold(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{2019}", with: "'")
            .replacingOccurrences(of: "\u{2018}", with: "'")
            .lowercased()
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }
}
