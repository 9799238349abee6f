import Foundation

/// Builds the provider the user configured. The only place a provider is constructed: the
/// scan, reviews, Preferences' "Test Connection", the fuzzers and the tests all come here.
public enum ProviderFactory {
    /// The provider from `settings` with its key from `keys`, wrapped so every call is recorded in
    /// `usage` when a database is given. Provider `none` gives nil; a provider that needs a key and
    /// has none gives an `UnavailableProvider` that says so on first use.
    /// With a `meter`, every call is refused once this month's budget is used up. Every answer is
    /// scrubbed of the keys and tokens `keys` knows (`SecretScrubbingProvider`).
    public static func make(settings: Settings, keys: KeyStore, http: any HTTPClient, usage database: AppDatabase? = nil, meter: UsageMeter? = nil,
                            log: DiagnosticLog = .standard) -> (any LLMProvider)? {
        guard let bare = makeBare(settings: settings, keys: keys, http: http) else { return nil }
        // Answers are scrubbed of every known secret before anything (the usage record included) reads them.
        let provider: any LLMProvider = bare is UnavailableProvider ? bare : SecretScrubbingProvider(bare, secrets: keys.knownSecrets(), log: log)
        guard let database else { return provider }
        return UsageRecordingProvider(provider, database: database, meter: meter, log: log)
    }

    static func makeBare(settings: Settings, keys: KeyStore, http: any HTTPClient) -> (any LLMProvider)? {
        let kind = settings.provider
        let model = settings.model ?? defaultModel(for: kind)
        switch kind {
        case .none:
            return nil
        case .anthropic, .openai:
            let found = keys.resolve(kind)
            guard let key = found.key else { return unavailable(kind, model: model, source: found.source) }
            return makeDirect(kind: kind, key: key, model: model, endpoint: endpoint(for: kind, in: settings), http: http)
        case .ollama:
            // Ollama ignores the key; a local proxy in front of it may want one.
            return makeDirect(kind: kind, key: keys.key(for: .ollama), model: model, endpoint: settings.endpoints.ollama, http: http)
        }
    }

    /// The bare provider for `kind` at `endpoint` with `key` as given (nil: none; Anthropic then
    /// sends an empty key), neither scrubbed nor metered. Nil for `none`.
    public static func makeDirect(kind: ProviderKind, key: String?, model: String? = nil, endpoint: URL? = nil,
                                  http: any HTTPClient) -> (any LLMProvider)? {
        let model = model ?? defaultModel(for: kind)
        let endpoint = endpoint ?? Self.endpoint(for: kind, in: Settings())
        switch kind {
        case .none: return nil
        case .anthropic: return AnthropicProvider(apiKey: key ?? "", model: model, baseURL: endpoint, http: http)
        case .openai, .ollama: return OpenAICompatibleProvider(kind: kind, apiKey: key, model: model, baseURL: endpoint, http: http)
        }
    }

    private static func endpoint(for kind: ProviderKind, in settings: Settings) -> URL {
        kind.endpointKeyPath.map { settings.endpoints[keyPath: $0] } ?? settings.endpoints.anthropic
    }

    /// A provider without a usable key, failing with the real reason: no key at all, or a key
    /// file that was found but refused (readable by others, in a world-writable folder).
    private static func unavailable(_ kind: ProviderKind, model: String, source: KeySource) -> UnavailableProvider {
        UnavailableProvider(kind: kind, model: model, reason: source.refusal.map { .unsafeKeyFile(kind, $0) } ?? .missingKey(kind))
    }

    public static func defaultModel(for kind: ProviderKind) -> String {
        switch kind {
        case .anthropic: return AnthropicProvider.defaultModel
        case .openai: return OpenAICompatibleProvider.defaultOpenAIModel
        case .ollama: return OpenAICompatibleProvider.defaultOllamaModel
        case .none: return ""
        }
    }
}
