/// Where an album's track list stands. Saved with the scan (in the same transaction) as
/// `pending`, so a kill, an outage or a full disk after the save leaves work the next Crate
/// process finishes instead of an album that can never be played (docs/reliability.md #20).
public enum TrackListStatus: String, Codable, Sendable {
    /// Still to fetch from MusicBrainz; retried by every process's repair pass.
    case pending
    /// The track list is in the library.
    case ok
    /// Nothing to fetch: the album has no MusicBrainz release, or the release lists no tracks.
    case unavailable
    /// Given up after `DetailsClaim.maxAttempts` failed lookups; a re-scan or `crate repair` tries again.
    case failed
}
