import Foundation

/// Errors of the Crate Wall and of favourites/dislikes, each with a sentence for the user.
public enum WallError: Error, Equatable, Sendable, LocalizedError {
    /// A data file (the dial's tables, the genre list) is not installed.
    case dataFileMissing(String)
    case dataFileInvalid(name: String, reason: String)
    /// A signal took longer than its time limit; the wall was built without it.
    case timedOut(seconds: TimeInterval)
    /// The signal had no albums to offer.
    case empty
    /// The signal needs something that is not set up (a ListenBrainz user).
    case notConfigured(String)
    /// `crate favorite X`: X is neither an album of the crate nor a release group on the wall.
    case unknownAlbum(String)
    /// The album has no MusicBrainz release group, so it cannot be rated or sent anywhere.
    case albumWithoutReleaseGroup(String)

    public var errorDescription: String? {
        switch self {
        case .dataFileMissing(let name): return L10n.tr("Crate's data file %@ was not found. Reinstall Crate or set CRATE_DATA_FILES to its data folder.", name)
        case .dataFileInvalid(let name, let reason): return L10n.tr("Crate's data file %@ could not be used: %@.", name, reason)
        case .timedOut(let seconds): return L10n.tr("It did not answer within %@.", WaitDuration.spoken(seconds))
        case .empty: return L10n.tr("It had no albums to show.")
        case .notConfigured(let what): return L10n.tr("It needs %@.", what)
        case .unknownAlbum(let id): return L10n.tr("No album %@ is in your crate or on the wall.", id)
        case .albumWithoutReleaseGroup(let title): return L10n.tr("%@ has no MusicBrainz release group, so it cannot be rated.", title)
        }
    }
}
