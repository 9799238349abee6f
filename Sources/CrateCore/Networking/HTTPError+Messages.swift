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

    /// What a user reads when `service` could not be reached: plain words, never the transport
    /// library's own text (addresses, ports, "Couldn't connect to server"), which stays in the log.
    public func unreachable(_ service: String) -> String {
        let subject = service.prefix(1).uppercased() + service.dropFirst()  // "the Cover Art Archive" opens a sentence
        switch self {
        case .timedOut: return "\(subject) took too long to answer. Try again in a moment."
        case .cannotConnect, .connectionLost, .transport:
            return "Could not reach \(service). Check the internet connection; Crate tries again later."
        case .cancelled: return "The request to \(service) was cancelled."
        case .bodyTooLarge, .tooManyRedirects, .redirectRefused:
            return "\(subject) sent an answer Crate could not use: \(message)"
        case .invalidURL, .invalidRequest:
            return "The address set for \(service) cannot be used. Check it in Preferences or the environment."
        }
    }

    /// Failures that may well succeed a moment later, so one automatic retry is worth it.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .cannotConnect, .connectionLost: return true
        default: return false
        }
    }
}
