import Foundation

/// Playback errors the user can see; messages are decided here.
public enum PlaybackError: Error, Equatable, Sendable {
    /// The album id is not in the library.
    case albumNotFound(Int64)
    /// Neither the library nor a lookup has this album's track list.
    case noTrackList(albumID: Int64)
    /// The track list is still to fetch (the lookup after the scan failed or was interrupted)
    /// and could not be fetched now either (docs/reliability.md #20).
    case trackListPending(albumID: Int64)
    /// Crate gave up fetching the track list after several failed lookups.
    case trackListFailed(albumID: Int64)
    /// `--from-grid` (or a grid context) does not contain the album to play.
    case albumNotInGrid(Int64)
    /// A queue was empty or an index pointed outside it.
    case nothingToPlay
    /// An entry index outside the loaded queue.
    case entryOutOfRange(Int)

    public var message: String {
        switch self {
        case .albumNotFound(let id):
            return "No album with id \(id) in your crate."
        case .noTrackList:
            return "No track list for this album"
        case .trackListPending:
            return "The track list of this album has not arrived yet (MusicBrainz did not answer); Crate fetches it on its next run, or now with `crate repair`."
        case .trackListFailed:
            return "Crate could not fetch the track list of this album after several tries; scan the album again or run `crate repair` to retry."
        case .albumNotInGrid(let id):
            return "Album \(id) is not in the grid it was played from."
        case .nothingToPlay:
            return "Nothing to play: none of these albums has a track list."
        case .entryOutOfRange(let index):
            return "There is no track \(index + 1) in the queue."
        }
    }
}

extension PlaybackError: LocalizedError {
    public var errorDescription: String? { message }
}
