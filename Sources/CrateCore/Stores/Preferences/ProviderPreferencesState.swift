import Foundation

/// The Identification Service group (and the first-run welcome): the provider and its model,
/// endpoint and web search, as edited. The key's status and its test are the `key` store's.
public struct ProviderPreferencesState: Equatable, Sendable {
    public var provider: ProviderKind = .none
    /// The model as typed; empty means the provider's default (`modelPlaceholder`).
    public var model = ""
    public var modelPlaceholder = ""
    /// The selected provider's base URL, as typed.
    public var endpoint = ""
    public var advancedSearch = false
    /// False for `none`: model, endpoint and key mean nothing without a provider.
    public var providerFieldsEnabled = false
    public var keyFieldEnabled = false
    /// Where to get a key for the selected provider (or, for Ollama, the program itself).
    public var keyLink: URL?
    public var keyLinkTitle = ""
    public var errorMessage: String?

    public init() {}
}
