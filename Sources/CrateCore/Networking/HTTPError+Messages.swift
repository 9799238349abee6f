import Foundation

extension HTTPError: LocalizedError {
    /// A sentence a user can read. Never contains headers or request bodies (they may hold keys).
    public var message: String {
        switch self {
        case .invalidURL(let url): return L10n.tr("The address %@ is not a valid http(s) URL.", url)
        case .timedOut: return L10n.tr("The server took too long to answer.")
        case .cannotConnect(let detail): return L10n.tr("Could not connect to the server (%@).", detail)
        case .bodyTooLarge(let limit): return L10n.tr("The server sent more than %@ KB; the download was stopped.", limit / 1024)
        case .tooManyRedirects: return L10n.tr("The server redirected too many times.")
        case .redirectRefused(let target): return L10n.tr("The server redirected to %@, which Crate does not follow.", target)
        case .cancelled: return L10n.tr("The request was cancelled.")
        case .transport(let detail): return L10n.tr("The network request failed (%@).", detail)
        case .connectionLost(let detail): return L10n.tr("The connection was lost (%@).", detail)
        case .invalidRequest(let detail): return L10n.tr("The request could not be sent (%@).", detail)
        }
    }

    public var errorDescription: String? { message }

    /// What a user reads when `service` could not be reached: plain words, never the transport
    /// library's own text (addresses, ports, "Couldn't connect to server"), which stays in the log.
    public func unreachable(_ service: String) -> String {
        let subject = service.prefix(1).uppercased() + service.dropFirst()  // "the Cover Art Archive" opens a sentence
        switch self {
        case .timedOut: return L10n.tr("%@ took too long to answer. Try again in a moment.", subject)
        case .cannotConnect, .connectionLost, .transport:
            return L10n.tr("Could not reach %@. Check the internet connection; Crate tries again later.", service)
        case .cancelled: return L10n.tr("The request to %@ was cancelled.", service)
        case .bodyTooLarge, .tooManyRedirects, .redirectRefused:
            return L10n.tr("%@ sent an answer Crate could not use: %@", subject, message)
        case .invalidURL, .invalidRequest:
            return L10n.tr("The address set for %@ cannot be used. Check it in Preferences or the environment.", service)
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
