import Foundation

/// Why listens could not be sent, classed by what the outbox does next.
public enum ListenSubmitError: Error, Equatable, Sendable, LocalizedError {
    /// ListenBrainz 401 / Last.fm error 9 (or 4, 10, 26): the token or session is wrong. Sending
    /// stops until the user fixes it; the listens wait.
    case notAuthorized(ListenService)
    /// The service is not set up (no token, no API key or session).
    case notConfigured(ListenService)
    /// 429 or Last.fm 29: wait this long (already capped).
    case rateLimited(ListenService, seconds: TimeInterval)
    /// 5xx, Last.fm 11/16, or no network: try again later.
    case unavailable(ListenService)
    /// The service refused these listens for good (400, Last.fm 6/13): retrying cannot help.
    case rejected(ListenService, String)

    /// Whether the listens stay queued for another try.
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .unavailable, .notAuthorized, .notConfigured: return true
        case .rejected: return false
        }
    }

    public var errorDescription: String? {
        switch self {
        case .notAuthorized(.listenBrainz):
            return L10n.tr("ListenBrainz did not accept your user token, so listens are kept until you set it again.")
        case .notAuthorized(.lastFM):
            return L10n.tr("Last.fm no longer accepts Crate's session, so scrobbles are kept until you connect Last.fm again (crate listens connect-lastfm).")
        case .notConfigured(let service):
            return L10n.tr("%@ is not set up, so listens for it are kept in Crate.", service.displayName)
        case .rateLimited(let service, let seconds):
            return L10n.tr("%@ asked Crate to wait %@ before sending more listens.", service.displayName, WaitDuration.spoken(seconds))
        case .unavailable(let service):
            return L10n.tr("%@ cannot be reached just now; listens are sent when it is back.", service.displayName)
        case .rejected(let service, _):
            return L10n.tr("%@ refused these listens.", service.displayName)
        }
    }
}
