import Foundation

/// Everything a provider call can fail with, with the message the user sees decided here.
///
/// No case ever carries the API key: provider messages are scrubbed before they get here.
public enum ProviderError: Error, Equatable, Sendable {
    /// No key is configured for a provider that needs one.
    case missingKey(ProviderKind)
    /// A key file exists but is unsafe, so it was not used (said instead of "no key").
    case unsafeKeyFile(ProviderKind, KeyFileProblem)
    /// 401/403: the key was refused.
    case invalidKey(ProviderKind, status: Int)
    /// A transient 429; `retryAfter` is the server's delay in seconds, when it gave one.
    case rateLimited(retryAfter: TimeInterval?)
    /// Anthropic 529 (or a 503 that says the same): the service is overloaded; try again later.
    case overloaded
    /// A 429 that will not go away by waiting: spend limit, no credit, quota used up.
    case quotaExhausted(ProviderKind)
    /// The model declined to answer.
    case refusal
    /// The answer had no text.
    case emptyResponse
    /// Any other 5xx.
    case serverError(status: Int)
    /// A status or body Crate does not understand (bad request, malformed JSON, …).
    case badResponse(String)
    /// The request never got an answer (timeout, connection refused, body too large, …).
    case transport(String)

    /// Whether retrying the same request later may succeed (the retry layer uses this).
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .overloaded, .serverError, .transport: return true
        case .missingKey, .unsafeKeyFile, .invalidKey, .quotaExhausted, .refusal, .emptyResponse, .badResponse: return false
        }
    }

    /// True when the user has to fix something in Settings (a key or an account).
    public var needsSettings: Bool {
        switch self {
        case .missingKey, .unsafeKeyFile, .invalidKey, .quotaExhausted: return true
        default: return false
        }
    }

    /// A short name for the kind of failure, safe to store (the usage table) and log.
    public var code: String {
        switch self {
        case .missingKey: return "missing_key"
        case .unsafeKeyFile: return "unsafe_key_file"
        case .invalidKey: return "invalid_key"
        case .rateLimited: return "rate_limited"
        case .overloaded: return "overloaded"
        case .quotaExhausted: return "quota_exhausted"
        case .refusal: return "refusal"
        case .emptyResponse: return "empty_response"
        case .serverError: return "server_error"
        case .badResponse: return "bad_response"
        case .transport: return "transport"
        }
    }

    public var message: String {
        switch self {
        case .missingKey(let kind):
            return L10n.tr("No API key is set for %@. Add one in Settings (Ctrl+,) or set %@.", kind.displayName, kind.keyEnvironmentVariables.last ?? "the key variable")
        case .unsafeKeyFile(let kind, let problem):
            return L10n.tr("Crate did not use the %@ API key because %@. Run `%@`, or set %@.", kind.displayName, problem.reason, problem.fix, kind.keyEnvironmentVariables.last ?? "the key variable")
        case .invalidKey(let kind, let status):
            return L10n.tr("%@ rejected the API key (HTTP %@). Check the key in Settings (Ctrl+,) or in %@.", kind.displayName, status, kind.keyEnvironmentVariables.last ?? "the key variable")
        case .rateLimited(let delay):
            if let delay { return L10n.tr("The provider is rate limiting requests; try again in %@ s.", Int(delay.rounded(.up))) }
            return L10n.tr("The provider is rate limiting requests; try again shortly.")
        case .overloaded:
            return L10n.tr("The provider is overloaded right now; try again in a moment.")
        case .quotaExhausted(let kind):
            return L10n.tr("Your %@ account has no quota or credit left. Check your plan and billing, or choose another provider in Settings (Ctrl+,).", kind.displayName)
        case .refusal:
            return L10n.tr("The model declined to answer.")
        case .emptyResponse:
            return L10n.tr("The model returned an empty answer.")
        case .serverError(let status):
            return L10n.tr("The provider had a server error (HTTP %@).", status)
        case .badResponse(let detail):
            return L10n.tr("The provider sent an answer Crate could not read: %@", detail).endingSentence
        case .transport(let detail) where detail.hasPrefix(ProviderHTTP.cutOff):
            return L10n.tr("The provider's answer stopped short: %@", detail).endingSentence
        case .transport(let detail):
            return L10n.tr("Could not reach the provider: %@", detail).endingSentence
        }
    }
}

extension ProviderError: LocalizedError {
    public var errorDescription: String? { message }
}

extension ProviderKind {
    /// The provider's name as shown to the user.
    public var displayName: String {
        switch self {
        case .anthropic: return "Anthropic"
        case .openai: return "OpenAI"
        case .ollama: return "Ollama"
        case .none: return L10n.tr("No provider")
        }
    }
}
