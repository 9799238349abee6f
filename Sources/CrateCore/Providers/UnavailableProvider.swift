import Foundation

/// A configured provider that cannot be used (no key, an insecure key file): every call fails
/// with the reason, so cached reviews still show and a new call says exactly what to fix.
public final class UnavailableProvider: LLMProvider {
    public let kind: ProviderKind
    public let model: String
    public let supportsSearch = false
    public let reason: ProviderError

    public init(kind: ProviderKind, model: String, reason: ProviderError) {
        self.kind = kind
        self.model = model
        self.reason = reason
    }

    public func complete(_ request: LLMRequest) async throws -> LLMResponse {
        throw reason
    }
}
