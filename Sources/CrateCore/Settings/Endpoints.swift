import Foundation

/// Base URLs of every service Crate talks to. All configurable, so a user can point at a mirror or
/// a local Ollama, and tests at a loopback fixture server.
public struct Endpoints: Equatable, Sendable, Codable {
    public var musicBrainz: URL
    public var coverArtArchive: URL
    public var anthropic: URL
    public var openAI: URL
    public var ollama: URL

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
    ] }
}
