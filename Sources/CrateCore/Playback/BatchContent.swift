/// What loading a batch of albums produced: albums and track lists, and which could not be had.
struct BatchContent: Sendable {
    /// The album ids this content was loaded for, in order.
    var albumIDs: [Int64]
    var albums: [Int64: Album] = [:]
    var trackLists: [Int64: [Track]] = [:]
    /// Audio files by album and track, for albums matched in the music folder (real playback).
    var files: [Int64: [TrackSlot: String]] = [:]
    /// Album gains the library stored for those files (`crate music analyze`).
    var gains: [Int64: Double] = [:]
    /// Albums with no files in the music folder (real playback only), with why.
    var withoutFiles: [Int64: AudioPlaybackError] = [:]
    /// Ids that are not in the library at all.
    var missingAlbumIDs: [Int64] = []
    /// Albums in the library whose track list is neither stored nor found by lookup.
    var withoutTrackList: [Int64] = []

    init(albumIDs: [Int64]) {
        self.albumIDs = albumIDs
    }
}
