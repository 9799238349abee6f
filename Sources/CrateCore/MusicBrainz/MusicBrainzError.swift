import Foundation

/// Why a MusicBrainz call failed, with a message the user can read.
public enum MusicBrainzError: Error, Equatable, Sendable, LocalizedError {
    case invalidIdentifier(String)
    case notFound
    /// 503/429 after the retry: rate limited or load shedding.
    case busy
    /// 403: usually a missing or blocked User-Agent.
    case refused
    case server(status: Int)
    /// The answer was not the JSON MusicBrainz sends.
    case malformedResponse(String)
    case network(HTTPError)
    /// MusicBrainz asked for a pause longer than Crate waits inside a request (`Retry-After`);
    /// `seconds` is what was left of it. Every Crate process holds back until then.
    case mustWait(seconds: TimeInterval)

    public var errorDescription: String? {
        switch self {
        case .invalidIdentifier: return "That is not a valid MusicBrainz identifier."
        case .notFound: return "MusicBrainz has no such release."
        case .busy: return "MusicBrainz is busy right now. Try again in a minute."
        case .refused: return "MusicBrainz refused the request. Check the contact address in Settings."
        case .server(let status): return "MusicBrainz answered with an error (HTTP \(status))."
        case .malformedResponse: return "MusicBrainz sent an answer Crate could not read."
        case .network(let error): return error.unreachable("MusicBrainz")
        case .mustWait(let seconds): return "MusicBrainz asked Crate to wait \(WaitDuration.spoken(seconds)) before sending more requests."
        }
    }
}
