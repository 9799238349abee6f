import Foundation

/// Builds the provider the user configured.
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
        case .anthropic:
            let found = keys.resolve(.anthropic)
            guard let key = found.key else { return unavailable(kind, model: model, source: found.source) }
            return AnthropicProvider(apiKey: key, model: model, baseURL: settings.endpoints.anthropic, http: http)
        case .openai:
            let found = keys.resolve(.openai)
            guard let key = found.key else { return unavailable(kind, model: model, source: found.source) }
            return OpenAICompatibleProvider(kind: kind, apiKey: key, model: model, baseURL: settings.endpoints.openAI, http: http)
        case .ollama:
            // Ollama ignores the key; a local proxy in front of it may want one.
            return OpenAICompatibleProvider(kind: kind, apiKey: keys.key(for: .ollama), model: model, baseURL: settings.endpoints.ollama, http: http)
        }
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
