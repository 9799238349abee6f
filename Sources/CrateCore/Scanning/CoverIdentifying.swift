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
    /// The catalogue number, barcode, format and track titles read off the sleeve (identify-v2).
    public var sleeve: SleeveReading

    public init(artist: String, album: String, year: String? = nil, label: String? = nil, confidence: Double, usedSearch: Bool, sleeve: SleeveReading = SleeveReading()) {
        self.artist = artist
        self.album = album
        self.year = year
        self.label = label
        self.confidence = confidence
        self.usedSearch = usedSearch
        self.sleeve = sleeve
    }

    private enum CodingKeys: String, CodingKey {
        case artist, album, year, label, confidence, usedSearch, sleeve
    }

    /// Journal rows written before `sleeve` existed decode with an empty one (encoding is synthesised from the same keys).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            artist: try c.decode(String.self, forKey: .artist),
            album: try c.decode(String.self, forKey: .album),
            year: try c.decodeIfPresent(String.self, forKey: .year),
            label: try c.decodeIfPresent(String.self, forKey: .label),
            confidence: try c.decode(Double.self, forKey: .confidence),
            usedSearch: try c.decode(Bool.self, forKey: .usedSearch),
            sleeve: (try? c.decodeIfPresent(SleeveReading.self, forKey: .sleeve)) ?? SleeveReading()
        )
    }

    /// What MusicBrainz is asked for: the title and artist, and every hint the sleeve gave.
    public var releaseQuery: ReleaseQuery {
        ReleaseQuery(title: album, artist: artist, year: year, label: label, catalogNumber: sleeve.catalogNumber,
                     barcode: sleeve.barcode, format: sleeve.format, trackTitles: sleeve.trackTitles)
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
