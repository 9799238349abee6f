import Foundation

/// Why a ListenBrainz call failed, with a sentence the user can read. No transport or server text
/// reaches the user: the server's own words go to the log only.
public enum ListenBrainzError: Error, Equatable, Sendable, LocalizedError {
    /// No ListenBrainz user name is set (`CRATE_LISTENBRAINZ_USER` or Preferences).
    case noAccount
    /// The call needs a user token and none is set.
    case noToken
    /// 401: the token is wrong or was revoked.
    case invalidToken
    /// 404 on a user's endpoint.
    case unknownUser(String)
    /// 429, or the window's budget is spent with a long reset: wait this many seconds.
    case rateLimited(seconds: TimeInterval)
    /// 204 on a statistics endpoint: ListenBrainz has not computed them for this user yet.
    case statsNotReady
    /// 400: ListenBrainz refused the request's parameters.
    case badRequest
    case server(status: Int)
    /// The answer was not the JSON ListenBrainz sends (truncated, HTML, …).
    case malformedResponse(String)
    case network(HTTPError)

    public var errorDescription: String? {
        switch self {
        case .noAccount: return "No ListenBrainz user name is set, so your ListenBrainz history is not used."
        case .noToken: return "No ListenBrainz token is set. Add your user token to send favourites and dislikes to ListenBrainz."
        case .invalidToken: return "ListenBrainz did not accept your user token. Copy it again from your ListenBrainz settings page."
        case .unknownUser(let user): return "ListenBrainz has no user called \(user)."
        case .rateLimited(let seconds): return "ListenBrainz asked Crate to wait \(WaitDuration.spoken(seconds)) before sending more requests."
        case .statsNotReady: return "ListenBrainz has not computed your statistics yet. They usually appear within a day of your first listens."
        case .badRequest: return "ListenBrainz refused the request."
        case .server(let status): return "ListenBrainz answered with an error (HTTP \(status))."
        case .malformedResponse: return "ListenBrainz sent an answer Crate could not read."
        case .network(let error): return error.unreachable("ListenBrainz")
        }
    }
}
