import Foundation

/// A generated album review, cached by a normalised artist + title key.
public struct Review: Equatable, Sendable, Codable {
    public var key: String
    public var summary: String
    public var bullets: [String]
    public var rating: Double
    public var recommendation: String
    public var tier: Int
    public var keyTracks: [String]
    public var provider: String
    public var model: String
    public var promptVersion: String
    public var usedSearch: Bool
    public var generatedAt: Date

    public init(key: String, summary: String, bullets: [String], rating: Double, recommendation: String, tier: Int, keyTracks: [String], provider: String, model: String, promptVersion: String, usedSearch: Bool, generatedAt: Date = Date()) {
        self.key = key
        self.summary = summary
        self.bullets = bullets
        self.rating = rating
        self.recommendation = recommendation
        self.tier = tier
        self.keyTracks = keyTracks
        self.provider = provider
        self.model = model
        self.promptVersion = promptVersion
        self.usedSearch = usedSearch
        self.generatedAt = generatedAt
    }
}
