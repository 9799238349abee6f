import Foundation

/// Where a provider's API key came from. The key itself is never printed or logged.
public enum KeySource: Equatable, Sendable {
    case environment(String)
    case secretService
    case file(String)
    case missing
    /// A key file exists but others can read it; Crate refuses to use it.
    case refusedInsecureFile(String)
    /// The keys folder (this path) is world-writable; Crate refuses every key file in it.
    case refusedInsecureDirectory(String)
    /// The key found at `location` (a file, or `$VARIABLE`) cannot be a key: `reason` says why.
    case refusedMalformed(location: String, reason: String)

    public var description: String {
        switch self {
        case .environment(let name): return "from $\(name)"
        case .secretService: return "from the Secret Service"
        case .file(let path): return "from \(path)"
        case .missing: return "no key"
        case .refusedInsecureFile(let path): return "refused: \(path) is readable by others (chmod 600 it)"
        case .refusedInsecureDirectory(let path): return "refused: the folder \(path) is writable by others (chmod 700 it)"
        case .refusedMalformed(let location, let reason): return "refused: \(location) \(reason)"
        }
    }

    /// Why a key file was found but not used, if it was.
    public var refusal: KeyFileProblem? {
        switch self {
        case .refusedInsecureFile(let path): return .readableByOthers(path: path)
        case .refusedInsecureDirectory(let path): return .folderWritableByOthers(path: path)
        case .refusedMalformed(let location, let reason): return .malformed(location: location, reason: reason)
        case .environment, .secretService, .file, .missing: return nil
        }
    }
}

/// Reads API keys from the environment or a `0600` file under the config directory.
/// (The desktop app adds the Secret Service in front of this.)
public struct KeyStore: Sendable {
    public let paths: CratePaths
    public let environment: [String: String]
    /// The desktop's Secret Service (libsecret), when a session bus offers one.
    public let secrets: SecretBackend?

    public init(paths: CratePaths, environment: [String: String] = ProcessInfo.processInfo.environment, secrets: SecretBackend? = nil) {
        self.paths = paths
        self.environment = environment
        self.secrets = secrets
    }

    public func keyFileURL(for provider: ProviderKind) -> URL {
        paths.configDirectory.appendingPathComponent("keys", isDirectory: true).appendingPathComponent("\(provider.rawValue).key")
    }

    public func source(for provider: ProviderKind) -> KeySource {
        lookup(provider).source
    }

    public func key(for provider: ProviderKind) -> String? {
        lookup(provider).key
    }

    /// The key and where it came from (or why there is none), in one lookup.
    public func resolve(_ provider: ProviderKind) -> (source: KeySource, key: String?) {
        lookup(provider)
    }

    /// Saves the key in the Secret Service when there is one (removing any key file), else in a
    /// file created with mode 0600.
    public func save(_ key: String, for provider: ProviderKind) throws -> KeySource {
        if let secrets, secrets.store(key, provider: provider) {
            try? FileManager.default.removeItem(at: keyFileURL(for: provider))
            return .secretService
        }
        try storeKey(key, for: provider)
        return .file(keyFileURL(for: provider).path)
    }

    /// Writes the key to a file created with mode 0600.
    public func storeKey(_ key: String, for provider: ProviderKind) throws {
        try writeKeyFile(key, to: keyFileURL(for: provider))
    }

    /// Writes a secret to `url`, created with mode 0600 in a 0700 folder.
    func writeKeyFile(_ key: String, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        try CratePaths.ensureWritable(dir)
        chmod(dir.path, 0o700)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CrateError.directoryNotWritable(dir.path) }
        defer { close(fd) }
        fchmod(fd, 0o600)  // The file may have existed with looser permissions.
        let bytes = Array(key.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw CrateError.directoryNotWritable(dir.path) }
    }

    private func lookup(_ provider: ProviderKind) -> (source: KeySource, key: String?) {
        for name in provider.keyEnvironmentVariables {
            if let value = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
                if let reason = Self.malformation(of: value) { return (.refusedMalformed(location: "$" + name, reason: reason), nil) }
                return (.environment(name), value)
            }
        }
        if let key = secrets?.lookup(provider: provider), !key.isEmpty {
            return (.secretService, key)
        }
        return readKeyFile(keyFileURL(for: provider))
    }

    /// A 0600 key file's content, refused when others could read or replace it.
    /// - Parameter isPassword: a password is kept exactly as typed (spaces and any character),
    ///   only a final line break dropped; a key must look like one.
    func readKeyFile(_ url: URL, isPassword: Bool = false) -> (source: KeySource, key: String?) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return (.missing, nil) }
        // A folder anyone can write to lets anyone replace the key with their own.
        let folder = url.deletingLastPathComponent()
        var folderInfo = stat()
        if stat(folder.path, &folderInfo) == 0, folderInfo.st_mode & 0o002 != 0 {
            return (.refusedInsecureDirectory(folder.path), nil)
        }
        if info.st_mode & 0o077 != 0 {
            return (.refusedInsecureFile(url.path), nil)
        }
        // Never read a huge file into memory (and a header): no key is near this size.
        if info.st_size > Int64(Self.maximumKeyLength) * 4 {
            return (.refusedMalformed(location: url.path, reason: "is \(info.st_size) bytes, far larger than an API key"), nil)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else { return (.missing, nil) }
        guard let text = String(data: data, encoding: .utf8) else {
            return (.refusedMalformed(location: url.path, reason: "is not text"), nil)
        }
        if isPassword {
            let password = text.hasSuffix("\n") ? String(text.dropLast()) : text
            return password.isEmpty ? (.missing, nil) : (.file(url.path), password)
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { return (.missing, nil) }
        if let reason = Self.malformation(of: key) { return (.refusedMalformed(location: url.path, reason: reason), nil) }
        return (.file(url.path), key)
    }

    /// The longest key Crate accepts; real ones are under 200 characters.
    static let maximumKeyLength = 1_024

    /// Why `key` cannot be an API key (it would go into an HTTP header), or nil when it can.
    static func malformation(of key: String) -> String? {
        if key.utf8.count > maximumKeyLength { return "holds \(key.utf8.count) characters, more than an API key has" }
        if key.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E }) {
            return "holds a line break, a space or a character no API key has; it must be the key alone on one line"
        }
        return nil
    }
}

/// Where the desktop keeps secrets (the Secret Service); absent in the CLI and tests.
public protocol SecretBackend: Sendable {
    func lookup(provider: ProviderKind) -> String?
    /// False when the key could not be stored (the caller falls back to a 0600 file).
    func store(_ key: String, provider: ProviderKind) -> Bool
    /// A secret that is not a provider key (the ListenBrainz token), by name.
    func lookup(secret name: String) -> String?
    func store(_ value: String, secret name: String) -> Bool
}

extension SecretBackend {
    /// Backends that keep provider keys only: named secrets go to 0600 files.
    public func lookup(secret name: String) -> String? { nil }
    public func store(_ value: String, secret name: String) -> Bool { false }
}

/// The ListenBrainz user token, kept like the provider keys: `CRATE_LISTENBRAINZ_TOKEN`, then the
/// Secret Service, then `keys/listenbrainz.key` (0600). Never printed or logged.
extension KeyStore {
    public static let listenBrainzSecret = "listenbrainz"
    public static let listenBrainzTokenVariable = "CRATE_LISTENBRAINZ_TOKEN"

    public var listenBrainzTokenURL: URL {
        paths.configDirectory.appendingPathComponent("keys", isDirectory: true).appendingPathComponent("\(Self.listenBrainzSecret).key")
    }

    /// The token and where it came from (or why there is none).
    public func listenBrainzToken() -> (source: KeySource, token: String?) {
        if let value = environment[Self.listenBrainzTokenVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
            return (.environment(Self.listenBrainzTokenVariable), value)
        }
        if let token = secrets?.lookup(secret: Self.listenBrainzSecret), !token.isEmpty {
            return (.secretService, token)
        }
        let file = readKeyFile(listenBrainzTokenURL)
        return (file.source, file.key)
    }

    /// Saves the token in the Secret Service when there is one, else in a 0600 file.
    public func saveListenBrainzToken(_ token: String) throws -> KeySource {
        if let secrets, secrets.store(token, secret: Self.listenBrainzSecret) {
            try? FileManager.default.removeItem(at: listenBrainzTokenURL)
            return .secretService
        }
        try writeKeyFile(token, to: listenBrainzTokenURL)
        return .file(listenBrainzTokenURL.path)
    }
}

/// The Discogs personal token, kept like the other keys: `CRATE_DISCOGS_TOKEN`, then the Secret
/// Service, then `keys/discogs.key` (0600). Never printed or logged.
extension KeyStore {
    public static let discogsSecret = "discogs"
    public static let discogsTokenVariable = "CRATE_DISCOGS_TOKEN"

    public var discogsTokenURL: URL {
        paths.configDirectory.appendingPathComponent("keys", isDirectory: true).appendingPathComponent("\(Self.discogsSecret).key")
    }

    /// The token and where it came from (or why there is none).
    public func discogsToken() -> (source: KeySource, token: String?) {
        if let value = environment[Self.discogsTokenVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
            return (.environment(Self.discogsTokenVariable), value)
        }
        if let token = secrets?.lookup(secret: Self.discogsSecret), !token.isEmpty {
            return (.secretService, token)
        }
        let file = readKeyFile(discogsTokenURL)
        return (file.source, file.key)
    }

    /// Saves the token in the Secret Service when there is one, else in a 0600 file.
    public func saveDiscogsToken(_ token: String) throws -> KeySource {
        if let secrets, secrets.store(token, secret: Self.discogsSecret) {
            try? FileManager.default.removeItem(at: discogsTokenURL)
            return .secretService
        }
        try writeKeyFile(token, to: discogsTokenURL)
        return .file(discogsTokenURL.path)
    }
}
