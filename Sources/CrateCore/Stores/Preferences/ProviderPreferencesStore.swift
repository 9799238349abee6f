import Foundation

/// The Identification Service group of Preferences, and the first-run welcome: the provider,
/// its model, endpoint and web search, and its key (`key`: status, typed key, Test Connection).
/// Nothing is written until `save()`.
@MainActor
public final class ProviderPreferencesStore {
    /// The providers in the order the window lists them, with their display names.
    public static let providers: [(kind: ProviderKind, name: String)] = [
        (.none, L10n.tr("None — offline matching only")),
        (.anthropic, "Anthropic"),
        (.openai, "OpenAI"),
        (.ollama, L10n.tr("Ollama (local)")),
    ]

    public let state = ObservableValue(ProviderPreferencesState())
    /// The selected provider's key and its "Test Connection".
    public let key: CredentialCheckStore<ProviderTarget>
    /// Called after a save that changed the provider, its endpoint or model, or stored a key:
    /// photos that failed or waited get another try.
    var onCredentialsChanged: (() -> Void)?
    private let settings: PreferencesSettings
    /// What was typed per provider, so switching back and forth keeps it until saved.
    private var endpointTexts: [ProviderKind: String] = [:]
    private var modelTexts: [ProviderKind: String] = [:]

    init(settings: PreferencesSettings, client: CredentialClient<ProviderTarget>) {
        self.settings = settings
        let saved = settings.saved, effective = settings.effective, session = settings.setForSession
        for (kind, _) in Self.providers {
            endpointTexts[kind] = kind.endpointKeyPath.map { saved.endpoints[keyPath: $0].absoluteString } ?? ""
        }
        modelTexts[saved.provider] = saved.model ?? ""
        // What this session runs with: a field a variable sets shows that value.
        if session[.model] != nil || session[.provider] != nil { modelTexts[effective.provider] = effective.model ?? "" }
        if session[.endpoint] != nil, let keyPath = effective.provider.endpointKeyPath {
            endpointTexts[effective.provider] = effective.endpoints[keyPath: keyPath].absoluteString
        }
        let kind = session[.provider] != nil ? effective.provider : saved.provider
        key = CredentialCheckStore(.providerKey(kind), client: client, keys: settings.environment.keys)
        var initial = ProviderPreferencesState()
        initial.advancedSearch = session[.advancedSearch] != nil ? effective.advancedSearch : saved.advancedSearch
        initial.errorMessage = settings.loadError
        state.set(initial)
        show(kind)
    }

    // MARK: - Intents

    public func selectProvider(_ kind: ProviderKind) {
        guard kind != state.value.provider else { return }
        key.use(.providerKey(kind))  // A key typed for one provider is never saved for another.
        show(kind)
    }

    public func setModel(_ text: String) {
        modelTexts[state.value.provider] = text
        state.update { $0.model = text }
    }

    public func setEndpoint(_ text: String) {
        endpointTexts[state.value.provider] = text
        state.update { $0.endpoint = text; $0.errorMessage = nil }
    }

    public func setAdvancedSearch(_ on: Bool) {
        state.update { $0.advancedSearch = on }
    }

    /// Validates and saves the provider's fields and a typed key. False, with `errorMessage`
    /// set, when something must be fixed first; nothing is written then.
    @discardableResult
    public func save() -> Bool {
        var current = state.value
        let saved = settings.saved, session = settings.setForSession
        // A key typed belongs to the provider shown (the one this session uses), while a field
        // set by a variable shows this session's value: the saved one stays saved.
        let keyProvider = current.provider
        if session[.provider] != nil { current.provider = saved.provider }
        if session[.model] != nil || session[.provider] != nil { current.model = saved.model ?? "" }
        if session[.endpoint] != nil || session[.provider] != nil {
            current.endpoint = current.provider.endpointKeyPath.map { saved.endpoints[keyPath: $0].absoluteString } ?? ""
        }
        if session[.advancedSearch] != nil { current.advancedSearch = saved.advancedSearch }
        var endpoints = saved.endpoints
        if let keyPath = current.provider.endpointKeyPath {
            guard let url = Self.endpointURL(current.endpoint) else {
                state.update { $0.errorMessage = L10n.tr("The endpoint must be an http:// or https:// address.") }
                return false
            }
            endpoints[keyPath: keyPath] = url
        }
        let typedModel = current.model.trimmingCharacters(in: .whitespaces)
        let model = current.provider == .none || typedModel.isEmpty ? nil : typedModel
        let storesKey = key.hasTyped && keyProvider != .none
        let credentialsChanged = current.provider != saved.provider || storesKey || endpoints != saved.endpoints || model != saved.model
        do {
            try settings.save({
                $0.provider = current.provider
                $0.endpoints = endpoints
                $0.model = model
                $0.advancedSearch = current.advancedSearch
            }, also: { try key.saveTyped() })
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        state.update { $0.errorMessage = nil }
        show(keyProvider)  // The provider this session uses stays shown, even when a variable sets it.
        if credentialsChanged, current.provider != .none { onCredentialsChanged?() }
        return true
    }

    /// Sends one tiny request to the selected provider, with the endpoint, model and key as they
    /// are now (a typed key is used before it is saved), and reports how it went in `key`.
    /// Never records usage and never saves anything.
    public func testConnection() {
        let current = state.value
        let kind = current.provider
        guard kind != .none else { return key.fail(L10n.tr("Choose a provider first.")) }
        guard let keyPath = kind.endpointKeyPath, let typedEndpoint = Self.endpointURL(current.endpoint) else {
            return key.fail(L10n.tr("The endpoint must be an http:// or https:// address."))
        }
        // The endpoint this session would really use: a `CRATE_*_URL` override wins, as it does
        // for scans.
        var candidate = settings.saved
        candidate.endpoints[keyPath: keyPath] = typedEndpoint
        let endpoint = ((try? candidate.applyingOverrides(from: settings.environment.variables)) ?? candidate).endpoints[keyPath: keyPath]
        let model = current.model.trimmingCharacters(in: .whitespaces).isEmpty ? ProviderFactory.defaultModel(for: kind) : current.model
        key.check(ProviderTarget(kind: kind, model: model, endpoint: endpoint))
    }

    /// Where to get a key for `kind` (Ollama: where to get Ollama).
    public static func keyLink(for kind: ProviderKind) -> (title: String, url: URL)? {
        switch kind {
        case .anthropic: return (L10n.tr("Get an Anthropic API key"), URL(string: "https://console.anthropic.com/settings/keys")!)
        case .openai: return (L10n.tr("Get an OpenAI API key"), URL(string: "https://platform.openai.com/api-keys")!)
        case .ollama: return (L10n.tr("Install Ollama (runs on this computer, no key)"), URL(string: "https://ollama.com/download")!)
        case .none: return nil
        }
    }

    // MARK: - Private

    private func show(_ kind: ProviderKind) {
        state.update {
            $0.provider = kind
            $0.model = modelTexts[kind] ?? ""
            $0.modelPlaceholder = ProviderFactory.defaultModel(for: kind)
            $0.endpoint = endpointTexts[kind] ?? ""
            $0.providerFieldsEnabled = kind != .none
            $0.keyFieldEnabled = kind.needsKey || kind == .ollama
            $0.keyLink = Self.keyLink(for: kind)?.url
            $0.keyLinkTitle = Self.keyLink(for: kind)?.title ?? ""
        }
    }

    private static func endpointURL(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else { return nil }
        return url
    }
}
