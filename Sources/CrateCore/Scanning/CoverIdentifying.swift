import Foundation

/// What the vision provider read off a cover (tiers 1–2).
public struct VisionAnswer: Equatable, Sendable, Codable {
    public var artist: String
    public var album: String
    public var year: String?
    public var label: String?
    public var confidence: Double
    /// True when tier 2 (search finalisation) produced the answer.
    public var usedSearch: Bool

    public init(artist: String, album: String, year: String? = nil, label: String? = nil, confidence: Double, usedSearch: Bool) {
        self.artist = artist
        self.album = album
        self.year = year
        self.label = label
        self.confidence = confidence
        self.usedSearch = usedSearch
    }
}

/// Identifies a prepared photo with a vision provider; nil when the cover could not be read.
public protocol CoverIdentifying: Sendable {
    func identify(photoJPEG: Data) async throws -> VisionAnswer?
    /// Who answers (provider and model): a paid answer is kept and reused only for the same photo
    /// and the same identity. Nil: answers are not kept (free or scripted identifiers).
    var identity: String? { get }
}

extension CoverIdentifying {
    public var identity: String? { nil }
}

/// Writes (or finds in the cache) an album's review.
public protocol AlbumReviewing: Sendable {
    /// False when no provider is set up: cached reviews only, and a missing one is no failure.
    var canGenerate: Bool { get }
    /// A cached review if there is one, without calling any provider.
    func cachedReview(for album: Album) throws -> Review?
    /// Generates (or, unless `regenerate`, returns the cached) review.
    func review(for album: Album, regenerate: Bool) async throws -> Review
}

/// Errors that mean "the provider key is wrong or missing": the user is sent to Preferences.
public protocol KeyProblem: Error {
    var keyProblemMessage: String { get }
}

/// A key problem carried as a plain message.
public struct ProviderKeyProblem: KeyProblem, LocalizedError {
    public let keyProblemMessage: String
    public var errorDescription: String? { keyProblemMessage }
}
