import Foundation

/// Why keeping the crate in a MusicBrainz collection failed, in the user's words.
public enum MusicBrainzCollectionError: Error, Equatable, Sendable, LocalizedError {
    /// No MusicBrainz user name or password is set.
    case noAccount
    /// 401 after the Digest challenge was answered: the user name or password is wrong.
    case signInRefused
    /// No collection is chosen yet (`crate mb-collection use`).
    case noCollectionChosen
    /// 404: the collection is gone, or is not this user's.
    case collectionNotFound(String)
    /// Any other MusicBrainz failure (busy, offline, malformed answer).
    case service(MusicBrainzError)

    public var errorDescription: String? {
        switch self {
        case .noAccount:
            return L10n.tr("MusicBrainz collections need your MusicBrainz user name and password: run crate mb-collection sign-in, or set CRATE_MUSICBRAINZ_USER and CRATE_MUSICBRAINZ_PASSWORD.")
        case .signInRefused:
            return L10n.tr("MusicBrainz refused the user name or password. Check them and sign in again.")
        case .noCollectionChosen:
            return L10n.tr("No MusicBrainz collection is chosen yet: list yours with crate mb-collection list, then choose one with crate mb-collection use ID.")
        case .collectionNotFound(let id):
            return L10n.tr("MusicBrainz has no collection %@ of yours. It may have been deleted; choose another one.", id)
        case .service(let error):
            return error.errorDescription
        }
    }
}
