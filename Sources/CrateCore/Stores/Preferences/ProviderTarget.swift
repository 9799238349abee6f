import Foundation

/// What a provider key is tested against: the provider, the model and the endpoint as they are
/// in Preferences now (typed, not yet saved).
public struct ProviderTarget: Equatable, Sendable {
    public var kind: ProviderKind
    public var model: String
    public var endpoint: URL

    public init(kind: ProviderKind, model: String, endpoint: URL) {
        self.kind = kind
        self.model = model
        self.endpoint = endpoint
    }
}
