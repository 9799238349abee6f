import Foundation

/// Base URLs of every service Crate talks to. All configurable, so a user can point at a mirror or
/// a local Ollama, and tests at a loopback fixture server.
public struct Endpoints: Equatable, Sendable, Codable {
    public var musicBrainz: URL
    public var coverArtArchive: URL
    public var anthropic: URL
    public var openAI: URL
    public var ollama: URL
    public var listenBrainz: URL
    public var listenBrainzLabs: URL
    /// The Discogs API (optional second source for links; `CRATE_DISCOGS_URL`).
    public var discogs: URL = DiscogsClient.defaultBaseURL
    /// Last.fm's API 2.0 (`CRATE_LASTFM_URL`), for scrobbles.
    public var lastFM: URL = LastFMClient.defaultBaseURL

    public init(musicBrainz: URL, coverArtArchive: URL, anthropic: URL, openAI: URL, ollama: URL,
                listenBrainz: URL = URL(string: "https://api.listenbrainz.org")!,
                listenBrainzLabs: URL = URL(string: "https://labs.api.listenbrainz.org")!) {
        self.musicBrainz = musicBrainz
        self.coverArtArchive = coverArtArchive
        self.anthropic = anthropic
        self.openAI = openAI
        self.ollama = ollama
        self.listenBrainz = listenBrainz
        self.listenBrainzLabs = listenBrainzLabs
    }

    // Settings files written before an endpoint existed keep working: missing ones get defaults.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Endpoints.defaults
        musicBrainz = try c.decodeIfPresent(URL.self, forKey: .musicBrainz) ?? d.musicBrainz
        coverArtArchive = try c.decodeIfPresent(URL.self, forKey: .coverArtArchive) ?? d.coverArtArchive
        anthropic = try c.decodeIfPresent(URL.self, forKey: .anthropic) ?? d.anthropic
        openAI = try c.decodeIfPresent(URL.self, forKey: .openAI) ?? d.openAI
        ollama = try c.decodeIfPresent(URL.self, forKey: .ollama) ?? d.ollama
        listenBrainz = try c.decodeIfPresent(URL.self, forKey: .listenBrainz) ?? d.listenBrainz
        listenBrainzLabs = try c.decodeIfPresent(URL.self, forKey: .listenBrainzLabs) ?? d.listenBrainzLabs
        discogs = try c.decodeIfPresent(URL.self, forKey: .discogs) ?? d.discogs
        lastFM = try c.decodeIfPresent(URL.self, forKey: .lastFM) ?? d.lastFM
    }

    public static let defaults = Endpoints(
        musicBrainz: URL(string: "https://musicbrainz.org/ws/2")!,
        coverArtArchive: URL(string: "https://coverartarchive.org")!,
        anthropic: URL(string: "https://api.anthropic.com")!,
        openAI: URL(string: "https://api.openai.com")!,
        ollama: URL(string: "http://127.0.0.1:11434")!
    )

    /// Environment variables that override each endpoint, in display order.
    public static var environmentKeys: [(name: String, keyPath: WritableKeyPath<Endpoints, URL>)] { [
        ("CRATE_MUSICBRAINZ_URL", \.musicBrainz),
        ("CRATE_COVERART_URL", \.coverArtArchive),
        ("CRATE_ANTHROPIC_URL", \.anthropic),
        ("CRATE_OPENAI_URL", \.openAI),
        ("CRATE_OLLAMA_URL", \.ollama),
        ("CRATE_LISTENBRAINZ_URL", \.listenBrainz),
        ("CRATE_LISTENBRAINZ_LABS_URL", \.listenBrainzLabs),
        ("CRATE_DISCOGS_URL", \.discogs),
        ("CRATE_LASTFM_URL", \.lastFM),
    ] }
}
