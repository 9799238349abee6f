/// Looks up an album's track list when the library has none (e.g. from MusicBrainz).
///
/// Injected into `PlaybackStore` so tests decide what a lookup returns.
public struct TrackListProvider: Sendable {
    public var lookup: @Sendable (Album) async throws -> [Track]

    public init(lookup: @escaping @Sendable (Album) async throws -> [Track]) {
        self.lookup = lookup
    }

    /// No lookup is available (offline, or no metadata source configured): every lookup fails.
    public static let unavailable = TrackListProvider { album in
        throw PlaybackError.noTrackList(albumID: album.id ?? -1)
    }
}
