import Foundation

/// A service Crate reports listens to. The raw value is what the outbox stores.
public enum ListenService: String, CaseIterable, Codable, Sendable {
    case listenBrainz = "listenbrainz"
    case lastFM = "lastfm"

    /// The service's name as the user knows it.
    public var displayName: String {
        switch self {
        case .listenBrainz: return "ListenBrainz"
        case .lastFM: return "Last.fm"
        }
    }

    /// Listens per request: ListenBrainz takes up to 1 000 (`import`), Last.fm 50 scrobbles.
    public var batchSize: Int {
        switch self {
        case .listenBrainz: return 1_000
        case .lastFM: return 50
        }
    }
}
