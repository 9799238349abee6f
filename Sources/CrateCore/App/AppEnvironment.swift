import Foundation

/// The composition root: the one place every Crate process (the window and each CLI command)
/// builds its services from. It holds what does not change while a process runs — where the files
/// are, the process environment, the library, the key backends — and builds `AppServices` from
/// the current settings on demand, so a change in Preferences is one `services()` call away.
public struct AppEnvironment: Sendable {
    public let paths: CratePaths
    /// The process environment: `CRATE_*` overrides and provider keys come from here.
    public let variables: [String: String]
    public let database: AppDatabase
    /// The Secret Service, when the session offers one (see `secretService` for why not).
    public let secrets: (any SecretBackend)?
    public let secretService: SecretServiceStatus
    /// The network transport every client shares (libcurl in the app; a script in tests).
    public let transport: any HTTPClient
    /// Paces MusicBrainz and the Cover Art Archive across all the user's Crate processes (see
    /// `SharedPacingStore`): one per process and pacing directory, so settings rebuilds keep it.
    public let limiter: RateLimiter

    /// - Parameter limiter: nil builds the user's: files under `$XDG_RUNTIME_DIR/crate/` (from
    ///   `variables`), else under the cache directory; in-process only if neither is writable.
    public init(paths: CratePaths, variables: [String: String] = ProcessInfo.processInfo.environment, database: AppDatabase,
                secrets: (any SecretBackend)? = nil, secretService: SecretServiceStatus = .unavailable("not asked"),
                transport: any HTTPClient = CurlHTTPClient(), limiter: RateLimiter? = nil) {
        self.paths = paths
        self.variables = variables
        self.database = database
        self.secrets = secrets
        self.secretService = secrets == nil ? secretService : .available
        self.transport = transport
        self.limiter = limiter
            ?? SharedPacingStore.forUser(environment: variables, cacheDirectory: paths.cacheDirectory).map(RateLimiter.sharedAcrossProcesses(store:))
            ?? .shared
    }

    /// Provider keys: environment first, then the Secret Service, then `0600` files.
    public var keys: KeyStore {
        KeyStore(paths: paths, environment: variables, secrets: secrets)
    }

    /// What `settings.json` holds, without overrides (what Preferences edits).
    public func savedSettings() throws -> Settings {
        try Settings.loadSaved(paths: paths)
    }

    /// The settings this process runs with: saved settings plus `CRATE_*` overrides.
    public func settings() throws -> Settings {
        try savedSettings().applyingOverrides(from: variables)
    }

    /// Services from the current settings. `offline` builds tier 0 only: nothing leaves the machine.
    public func services(offline: Bool = false) throws -> AppServices {
        AppServices(environment: self, settings: try settings(), offline: offline)
    }

    /// Services from explicit settings (after a save, or when the settings file is unreadable).
    public func services(settings: Settings, offline: Bool = false) -> AppServices {
        AppServices(environment: self, settings: settings, offline: offline)
    }
}

/// Whether Crate can keep keys in the desktop's Secret Service, and if not, why not.
public enum SecretServiceStatus: Equatable, Sendable {
    case available
    /// Turned off with `CRATE_SECRET_SERVICE=off`.
    case disabled
    /// No session bus, or nothing answered on it.
    case unavailable(String)

    public var description: String {
        switch self {
        case .available: return "available (keys saved in Preferences are kept there)"
        case .disabled: return "off (CRATE_SECRET_SERVICE=off); keys come from the environment or 0600 key files"
        case .unavailable(let reason): return "unavailable (\(reason)); keys come from the environment or 0600 key files"
        }
    }
}
