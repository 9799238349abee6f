import Foundation

/// Why the Discogs account (status, "Add to Discogs") could not do what was asked, in words for
/// the pane and the CLI (docs/decisions/0044-discogs-account-and-outbox.md).
public enum DiscogsAccountError: Error, Equatable, Sendable, LocalizedError {
    /// No token is set (Preferences, the Secret Service or `CRATE_DISCOGS_TOKEN`).
    case noToken
    /// 401 or 403: the token was refused. Queued additions are kept for a new token.
    case tokenRejected
    /// 429, or the shared pause after `X-Discogs-Ratelimit-Remaining: 0`.
    case rateLimited(seconds: TimeInterval)
    /// 404 on a write: Discogs knows no such release.
    case releaseUnknown(Int)
    case server(status: Int)
    case malformedResponse
    case network(HTTPError)
    /// The album has no Discogs release (never linked, or no match).
    case noRelease
    case albumNotFound(Int64)

    /// The account error for whatever a Discogs request threw (nil for a cancellation).
    public init?(_ error: Error) {
        switch error {
        case let error as DiscogsAccountError: self = error
        case let error as DiscogsError:
            switch error {
            case .noToken: self = .noToken
            case .tokenRejected: self = .tokenRejected
            case .rateLimited(let seconds): self = .rateLimited(seconds: seconds)
            case .server(let status): self = .server(status: status)
            case .malformedResponse: self = .malformedResponse
            case .network(.cancelled): return nil
            case .network(let error): self = .network(error)
            }
        case let error as RetryLaterError: self = .rateLimited(seconds: error.seconds)
        case let error as HTTPError:
            guard error != .cancelled else { return nil }
            self = .network(error)
        default: return nil
        }
    }

    /// True when the request certainly never reached Discogs, or Discogs certainly refused it:
    /// a collection POST that failed so is sent again without checking the count first.
    var certainlyNotAccepted: Bool {
        switch self {
        case .noToken, .tokenRejected, .rateLimited, .releaseUnknown, .noRelease, .albumNotFound: return true
        case .network(.cannotConnect), .network(.invalidURL), .network(.invalidRequest): return true
        case .server(let status): return status < 500
        case .network, .malformedResponse: return false
        }
    }

    public var message: String {
        switch self {
        case .noToken:
            return L10n.tr("Adding to Discogs needs a Discogs token: add one in Preferences or set CRATE_DISCOGS_TOKEN.")
        case .tokenRejected:
            return L10n.tr("Discogs refused the token, so additions wait in Crate until you set a new one in Preferences (Discogs → Settings → Developers).")
        case .rateLimited(let seconds):
            return L10n.tr("Discogs asked Crate to slow down; it tries again in %@.", WaitDuration.spoken(max(1, seconds)))
        case .releaseUnknown(let id):
            return L10n.tr("Discogs knows no release %@, so it could not be added.", String(id))
        case .server(let status):
            return L10n.tr("Discogs answered with an error (HTTP %@); Crate tries again later.", String(status))
        case .malformedResponse:
            return L10n.tr("Discogs sent an answer Crate could not read; Crate tries again later.")
        case .network(let error):
            return error.unreachable("Discogs")
        case .noRelease:
            return L10n.tr("This album is not matched to a Discogs release, so it cannot be added to Discogs.")
        case .albumNotFound(let id):
            return L10n.tr("No album with id %@ in the crate.", String(id))
        }
    }

    public var errorDescription: String? { message }
}
