import Foundation

/// What the artist page shows.
public struct ArtistPageState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// No artist asked for.
        case idle
        /// Searching MusicBrainz for a name.
        case searching
        /// Several artists answer to the name: `candidates` waits for the user's pick.
        case choosing
        /// An artist is chosen; nothing to show yet.
        case loading
        /// `catalogue` is shown (possibly still filling in: see `isFetching`).
        case loaded
        case failed(String)
    }

    public var phase: Phase = .idle
    /// The name searched for, if the page was opened by name.
    public var query: String?
    /// Namesakes to choose from, best score first.
    public var candidates: [ArtistCandidate] = []
    public var artistID: MBID?
    /// The artist's name while the catalogue has none yet (from the search or the album).
    public var artistName: String?
    public var catalogue: ArtistCatalogue?
    /// Pages are being fetched from MusicBrainz (the catalogue grows as they are saved).
    public var isFetching = false
    /// Why the shown catalogue may be stale or partial (offline, MusicBrainz busy); cleared by
    /// the next successful fetch.
    public var notice: String?

    public init() {}

    /// The name to show in the title.
    public var title: String? { catalogue?.name ?? artistName ?? query }
}
