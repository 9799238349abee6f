import Foundation

extension HTTPError: LocalizedError {
    /// A sentence a user can read. Never contains headers or request bodies (they may hold keys).
    public var message: String {
        switch self {
        case .invalidURL(let url): return "The address \(url) is not a valid http(s) URL."
        case .timedOut: return "The server took too long to answer."
        case .cannotConnect(let detail): return "Could not connect to the server (\(detail))."
        case .bodyTooLarge(let limit): return "The server sent more than \(limit / 1024) KB; the download was stopped."
        case .tooManyRedirects: return "The server redirected too many times."
        case .redirectRefused(let target): return "The server redirected to \(target), which Crate does not follow."
        case .cancelled: return "The request was cancelled."
        case .transport(let detail): return "The network request failed (\(detail))."
        case .connectionLost(let detail): return "The connection was lost (\(detail))."
        case .invalidRequest(let detail): return "The request could not be sent (\(detail))."
        }
    }

    public var errorDescription: String? { message }

    /// Failures that may well succeed a moment later, so one automatic retry is worth it.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .cannotConnect, .connectionLost: return true
        default: return false
        }
    }
}
