import Foundation

/// Why a vision identification produced no album.
public enum IdentificationError: Error, Equatable, Sendable {
    /// The model answered, but not with the JSON object asked for.
    case unreadableAnswer
    /// The provider call failed (a wrong key is reported as such, not as "unable to identify").
    case provider(ProviderError)
    case prompt(PromptLibrary.Failure)

    public static let unableToIdentify = "Unable to identify this cover art"

    /// What the user sees: key problems point to settings; everything else is the seed's banner.
    public var message: String {
        switch self {
        case .provider(let error) where error.needsSettings: return error.message
        case .prompt(let failure): return failure.errorDescription ?? IdentificationError.unableToIdentify
        default: return IdentificationError.unableToIdentify
        }
    }
}

extension IdentificationError: LocalizedError {
    public var errorDescription: String? { message }
}
