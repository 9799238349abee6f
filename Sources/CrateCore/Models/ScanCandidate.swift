import Foundation

/// Another release a scan's photo might show ("Not this album?"), kept with the scan so the
/// choice can still be offered later (after a restart, from the history).
public struct ScanCandidate: Equatable, Sendable {
    /// Not an album of the crate (no id): it only becomes one when the user picks it.
    public var album: Album
    /// How well it matched (0–1); nil when not scored, e.g. an album offered back after the user
    /// switched away from it.
    public var score: Double?

    public init(album: Album, score: Double? = nil) {
        self.album = album
        self.score = score
    }

    /// Whether two albums are the same release: by MusicBrainz id when both have one, else by
    /// title, artist and year.
    static func sameRelease(_ a: Album, _ b: Album) -> Bool {
        if let first = a.musicBrainzReleaseID, let second = b.musicBrainzReleaseID { return first == second }
        return a.title == b.title && a.artist == b.artist && a.year == b.year
    }
}
