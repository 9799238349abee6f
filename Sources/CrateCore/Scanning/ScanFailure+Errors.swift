import Foundation

extension ScanFailure {
    /// What a scan that threw `error` tells the user: Crate's own failures as they are, a
    /// network that cannot be reached as `.offline` (never the transport's own words, such as
    /// "Could not resolve host"), anything else through `UserMessage`.
    public init(_ error: Error, cancelled: Bool = false) {
        // A scan the user stopped is cancelled, whatever the layer it stopped in made of it.
        if cancelled {
            self = .cancelled
        } else if let failure = error as? ScanFailure {
            self = failure
        } else if error is CancellationError || Self.isCancellation(error) {
            self = .cancelled
        } else if let service = Self.unreachableService(error) {
            self = .offline(service: service)
        } else {
            self = .other(UserMessage.text(for: error))
        }
    }

    /// A request the user's Esc (or Stop) cut off: libcurl says "cancelled", a provider passes
    /// it on. Said "Cancelled", never "could not be scanned".
    static func isCancellation(_ error: Error) -> Bool {
        if let http = error as? HTTPError, case .cancelled = http { return true }
        if let provider = error as? ProviderError, case .transport(let detail) = provider { return detail == "cancelled" }
        if let identification = error as? IdentificationError, case .provider(let provider) = identification { return isCancellation(provider) }
        return false
    }

    /// True for a provider call that never got an answer because the network is away.
    public static func isUnreachable(_ error: ProviderError) -> Bool {
        guard case .transport(let detail) = error else { return false }
        // A cut-off answer came from a reachable provider.
        return detail != "cancelled" && !detail.hasPrefix(ProviderHTTP.cutOff)
    }

    /// True for the transport failures that mean "no connection" (not a server's answer).
    public static func isUnreachable(_ error: HTTPError) -> Bool {
        switch error {
        case .cannotConnect, .timedOut, .connectionLost, .transport: return true
        case .invalidURL, .bodyTooLarge, .tooManyRedirects, .redirectRefused, .cancelled, .invalidRequest: return false
        }
    }

    /// The service that could not be reached, when `error` means exactly that.
    static func unreachableService(_ error: Error) -> String? {
        switch error {
        case let error as HTTPError: return isUnreachable(error) ? "the internet" : nil
        case let error as ProviderError: return isUnreachable(error) ? "the identification service" : nil
        case IdentificationError.provider(let error): return isUnreachable(error) ? "the identification service" : nil
        case MusicBrainzError.network(let error): return isUnreachable(error) ? "MusicBrainz" : nil
        case CoverArtError.network(let error): return isUnreachable(error) ? "the Cover Art Archive" : nil
        default: return nil
        }
    }

    /// True for a service's passing trouble — a 429, a 5xx, Anthropic's 529, a dropped or timed-out
    /// connection, a pause it asked for — that says nothing about the photo.
    public static func isServiceTrouble(_ error: Error) -> Bool {
        switch error {
        case is ServiceTroubleError: return true
        case let error as ProviderError: return error.isTransient
        case IdentificationError.provider(let error): return error.isTransient
        case let error as MusicBrainzError:
            switch error {
            case .busy, .server, .mustWait: return true
            case .network(let http): return isUnreachable(http)
            default: return false
            }
        case let error as CoverArtError:
            switch error {
            case .server, .mustWait: return true
            case .network(let http): return isUnreachable(http)
            default: return false
            }
        case let error as HTTPError: return isUnreachable(error)
        case is RetryLaterError: return true
        default: return false
        }
    }

    /// True when the photo is not to blame: it waits in the queue and is scanned again later
    /// (when the network is back, after a new key, after a service's pause).
    public var waitsForRetry: Bool {
        switch self {
        case .offline, .providerKey, .mustWait, .budgetUsedUp: return true
        case .notIdentified, .badImage, .other, .cancelled: return false
        }
    }
}
