import Foundation

/// The vision/review providers Crate can use.
public enum ProviderKind: String, CaseIterable, Codable, Sendable {
    case anthropic
    case openai
    case ollama
    case none

    /// Environment variables holding a key for this provider, in lookup order.
    public var keyEnvironmentVariables: [String] {
        switch self {
        case .anthropic: return ["CRATE_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"]
        case .openai: return ["CRATE_OPENAI_API_KEY", "OPENAI_API_KEY"]
        case .ollama, .none: return []
        }
    }

    public var needsKey: Bool { self == .anthropic || self == .openai }

    /// Where this provider's base URL lives in `Endpoints` (nil for `none`).
    public var endpointKeyPath: WritableKeyPath<Endpoints, URL>? {
        switch self {
        case .anthropic: return \.anthropic
        case .openai: return \.openAI
        case .ollama: return \.ollama
        case .none: return nil
        }
    }
}

/// User settings: `settings.json` in the config directory, overridden by `CRATE_*` variables.
public struct Settings: Equatable, Sendable, Codable {
    public var provider: ProviderKind = .none
    public var model: String?
    public var advancedSearch: Bool = false
    /// Contact for the MusicBrainz User-Agent (an e-mail or URL).
    public var musicBrainzContact: String = "https://crate.dev"
    public var endpoints: Endpoints = .defaults
    /// Folders of audio files to play from; empty means the XDG music folder (`MusicFolders`).
    public var musicFolders: [String] = []
    /// The ListenBrainz user whose history and recommendations feed the Crate Wall (nil: none).
    public var listenBrainzUser: String?
    /// The optional monthly budget for the identification service (scans and/or dollars).
    public var monthlyBudget: UsageBudget = .none
    /// "Scan photos that arrive in…": the folder (kept when the switch is off) and the switch,
    /// off by default (docs/decisions/0041-watched-photo-folder.md).
    public var photoFolder: String?
    public var watchPhotoFolder: Bool = false
    /// Which services get listens (docs/decisions/0042-listens-and-the-turntable.md).
    public var listens = ListenSettings()
    /// The MusicBrainz account and collection the owned records are kept in (the password is in
    /// the Secret Service or a 0600 file, never here).
    public var musicBrainzAccount = MusicBrainzAccount()

    public init() {}

    /// Reads `settings.json` (missing → defaults) and applies the environment's overrides: the
    /// settings a process runs with. A malformed file is reported, not silently replaced.
    public static func load(paths: CratePaths, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        try loadSaved(paths: paths).applyingOverrides(from: environment)
    }

    /// What `settings.json` says, with no environment applied: what Preferences edits and saves,
    /// so a one-off `CRATE_*` override never becomes permanent.
    public static func loadSaved(paths: CratePaths) throws -> Settings {
        guard let data = FileManager.default.contents(atPath: paths.settingsURL.path), !data.isEmpty else { return Settings() }
        do {
            return try JSONDecoder().decode(Settings.self, from: data)
        } catch {
            throw SettingsError.malformed(path: paths.settingsURL.path)
        }
    }

    /// These settings with the `CRATE_*` variables of `environment` on top.
    public func applyingOverrides(from environment: [String: String]) throws -> Settings {
        var settings = self
        for (name, keyPath) in Endpoints.environmentKeys {
            if let value = environment[name], !value.isEmpty {
                settings.endpoints[keyPath: keyPath] = try Self.url(value, variable: name)
            }
        }
        if let provider = environment["CRATE_PROVIDER"], !provider.isEmpty {
            guard let kind = ProviderKind(rawValue: provider.lowercased()) else {
                throw SettingsError.unknownProvider(provider)
            }
            settings.provider = kind
        }
        if let model = environment["CRATE_MODEL"], !model.isEmpty { settings.model = model }
        for name in ["CRATE_CONTACT", "CRATE_MUSICBRAINZ_CONTACT"] {
            if let contact = environment[name], !contact.isEmpty { settings.musicBrainzContact = contact }
        }
        if let user = environment["CRATE_LISTENBRAINZ_USER"] {
            let trimmed = user.trimmingCharacters(in: .whitespacesAndNewlines)
            // Set but empty turns a saved user off for this process.
            settings.listenBrainzUser = trimmed.isEmpty ? nil : trimmed
        }
        if let flag = environment["CRATE_ADVANCED_SEARCH"], !flag.isEmpty {
            settings.advancedSearch = ["1", "true", "yes", "on"].contains(flag.lowercased())
        }
        // CRATE_MUSIC_DIRS: music folders separated by ":" (like PATH).
        if let dirs = environment["CRATE_MUSIC_DIRS"], !dirs.isEmpty {
            settings.musicFolders = dirs.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        settings.listens = settings.listens.applyingOverrides(from: environment)
        settings.musicBrainzAccount = settings.musicBrainzAccount.applyingOverrides(from: environment)
        // CRATE_PROVIDER_URL points the *selected* provider somewhere else (a proxy, a fixture server).
        if let value = environment["CRATE_PROVIDER_URL"], !value.isEmpty, let keyPath = settings.provider.endpointKeyPath {
            settings.endpoints[keyPath: keyPath] = try Self.url(value, variable: "CRATE_PROVIDER_URL")
        }
        return settings
    }

    /// The variables of `environment` that override a saved setting, in a stable order.
    public static func activeOverrides(in environment: [String: String]) -> [String] {
        let names = ["CRATE_PROVIDER", "CRATE_MODEL", "CRATE_PROVIDER_URL", "CRATE_CONTACT", "CRATE_MUSICBRAINZ_CONTACT", "CRATE_ADVANCED_SEARCH", "CRATE_MUSIC_DIRS",
                     "CRATE_LISTENBRAINZ_USER", "CRATE_LISTENS", "CRATE_LASTFM_API_KEY", "CRATE_MUSICBRAINZ_USER", "CRATE_MUSICBRAINZ_COLLECTION"]
            + Endpoints.environmentKeys.map(\.name)
        return names.filter { !(environment[$0] ?? "").isEmpty }
    }

    private static func url(_ value: String, variable: String) throws -> URL {
        guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw SettingsError.invalidEndpoint(variable: variable, value: value)
        }
        return url
    }

    public func save(paths: CratePaths) throws {
        try CratePaths.ensureWritable(paths.configDirectory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: paths.settingsURL, options: .atomic)
    }

    // Decoding tolerates missing keys so old settings files keep working.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        provider = try c.decodeIfPresent(ProviderKind.self, forKey: .provider) ?? .none
        model = try c.decodeIfPresent(String.self, forKey: .model)
        advancedSearch = try c.decodeIfPresent(Bool.self, forKey: .advancedSearch) ?? false
        musicBrainzContact = try c.decodeIfPresent(String.self, forKey: .musicBrainzContact) ?? "https://crate.dev"
        endpoints = try c.decodeIfPresent(Endpoints.self, forKey: .endpoints) ?? .defaults
        musicFolders = try c.decodeIfPresent([String].self, forKey: .musicFolders) ?? []
        listenBrainzUser = try c.decodeIfPresent(String.self, forKey: .listenBrainzUser)
        monthlyBudget = try c.decodeIfPresent(UsageBudget.self, forKey: .monthlyBudget) ?? .none
        photoFolder = try c.decodeIfPresent(String.self, forKey: .photoFolder)
        watchPhotoFolder = try c.decodeIfPresent(Bool.self, forKey: .watchPhotoFolder) ?? false
        listens = try c.decodeIfPresent(ListenSettings.self, forKey: .listens) ?? ListenSettings()
        musicBrainzAccount = try c.decodeIfPresent(MusicBrainzAccount.self, forKey: .musicBrainzAccount) ?? MusicBrainzAccount()
    }
}

public enum SettingsError: Error, Equatable, LocalizedError {
    case malformed(path: String)
    case invalidEndpoint(variable: String, value: String)
    case unknownProvider(String)

    public var errorDescription: String? {
        switch self {
        case .malformed(let path): return L10n.tr("The settings file %@ is not valid JSON. Fix or remove it.", path)
        case .invalidEndpoint(let variable, let value): return "\(variable)=\(value) is not an http(s) URL."
        case .unknownProvider(let name): return L10n.tr("Unknown provider \"%@\"; use anthropic, openai, ollama or none.", name)
        }
    }
}
