import Foundation

/// Why the pressings of an album could not be listed, or the album not switched to one.
/// Nothing was changed when one of these is thrown.
public enum PressingError: Error, Equatable, Sendable {
    /// No such album in the crate.
    case albumNotFound
    /// The album was never matched to a MusicBrainz release group (added from files, or its
    /// search found nothing): there is no list of pressings to choose from.
    case noReleaseGroup
    /// Not a MusicBrainz release id.
    case invalidRelease(String)
    /// The release belongs to another release group: another album, not a pressing of this one.
    case notAPressing
    /// Crate runs offline (no MusicBrainz client).
    case offline

    public var message: String {
        switch self {
        case .albumNotFound:
            return L10n.tr("That album is not in the crate any more.")
        case .noReleaseGroup:
            return L10n.tr("This album was never matched to a MusicBrainz release, so Crate knows no other pressings of it.")
        case .invalidRelease(let text):
            return L10n.tr("“%@” is not a MusicBrainz release id.", String(text.prefix(80)))
        case .notAPressing:
            return L10n.tr("That release is not a pressing of this album.")
        case .offline:
            return L10n.tr("Crate is offline: listing or switching pressings needs MusicBrainz.")
        }
    }
}

extension PressingError: LocalizedError {
    public var errorDescription: String? { message }
}

extension PressingError: CustomStringConvertible {
    public var description: String { message }
}
