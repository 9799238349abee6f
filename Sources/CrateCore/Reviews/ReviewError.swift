import Foundation

/// Why no review could be shown. The words the user sees are decided here.
public enum ReviewError: Error, Equatable, Sendable {
    case invalidInput(ReviewInputError)
    /// Provider `none`, and the review is not cached.
    case noProvider
    case provider(ProviderError)
    case invalidOutput(ReviewOutputError)
    case prompt(PromptLibrary.Failure)

    /// The seed's headline for a review that failed.
    public static let unavailableTitle = "Review Temporarily Unavailable"
    /// The seed's tip, adapted to the desktop (Regenerate is a button there).
    public static let retryTip = "Tip: scan this album again (or press Regenerate) to retry generating the review."

    /// True when the fix is in Settings (a key, an account, no provider chosen): then the message
    /// says so instead of suggesting a rescan.
    public var needsSettings: Bool {
        switch self {
        case .noProvider: return true
        case .provider(let error): return error.needsSettings
        default: return false
        }
    }

    /// The headline: the seed's "Review Temporarily Unavailable", or the key problem itself.
    public var title: String {
        switch self {
        case .provider(.missingKey): return L10n.tr("API Key Missing")
        case .provider(.unsafeKeyFile): return L10n.tr("API Key Not Used")
        case .provider(.invalidKey): return L10n.tr("API Key Rejected")
        case .noProvider: return L10n.tr("No Review Provider")
        default: return ReviewError.unavailableTitle
        }
    }

    /// One sentence saying what went wrong, in the user's terms.
    public var message: String {
        switch self {
        case .invalidInput(let error): return error.message
        case .noProvider: return L10n.tr("No review provider is set up. Choose Anthropic, OpenAI or Ollama in Settings (Ctrl+,) or set CRATE_PROVIDER.")
        case .provider(let error): return error.message
        case .invalidOutput(let error): return L10n.tr("The review that came back could not be used: %@.", error.detail)
        case .prompt(let failure): return failure.errorDescription ?? "The review prompt is missing."
        }
    }

    /// The retry tip, except when retrying cannot help until something is fixed.
    public var tip: String? {
        switch self {
        case .invalidInput, .prompt: return nil
        default: return needsSettings ? nil : ReviewError.retryTip
        }
    }
}

extension ReviewError: LocalizedError {
    public var errorDescription: String? {
        [title == ReviewError.unavailableTitle ? title + "." : title + ":", message, tip].compactMap { $0 }.joined(separator: " ")
    }
}
