import Foundation

/// Playback errors the user can see; messages are decided here.
public enum PlaybackError: Error, Equatable, Sendable, Codable {
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
            return L10n.tr("No album with id %@ in your crate.", id)
        case .noTrackList:
            return L10n.tr("No track list for this album")
        case .trackListPending:
            return L10n.tr("The track list of this album has not arrived yet (MusicBrainz did not answer); Crate fetches it on its next run, or now with `crate repair`.")
        case .trackListFailed:
            return L10n.tr("Crate could not fetch the track list of this album after several tries; scan the album again or run `crate repair` to retry.")
        case .albumNotInGrid(let id):
            return L10n.tr("Album %@ is not in the grid it was played from.", id)
        case .nothingToPlay:
            return L10n.tr("Nothing to play: none of these albums has a track list.")
        case .entryOutOfRange(let index):
            return L10n.tr("There is no track %@ in the queue.", index + 1)
        }
    }
}

extension PlaybackError: LocalizedError {
    public var errorDescription: String? { message }
}
