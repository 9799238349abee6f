import Foundation

/// Last.fm's shared secret and the user's session key, kept like the other secrets: the
/// environment (`CRATE_LASTFM_API_SECRET`, `CRATE_LASTFM_SESSION_KEY`), then the Secret Service,
/// then `keys/lastfm-secret.key` / `keys/lastfm-session.key` (0600). Never printed or logged.
extension KeyStore {
    public static let lastFMSecretName = "lastfm-secret"
    public static let lastFMSessionName = "lastfm-session"
    public static let lastFMSecretVariable = "CRATE_LASTFM_API_SECRET"
    public static let lastFMSessionVariable = "CRATE_LASTFM_SESSION_KEY"

    public func lastFMSecret() -> (source: KeySource, value: String?) {
        namedSecret(Self.lastFMSecretName, variable: Self.lastFMSecretVariable)
    }

    public func lastFMSession() -> (source: KeySource, value: String?) {
        namedSecret(Self.lastFMSessionName, variable: Self.lastFMSessionVariable)
    }

    public func saveLastFMSecret(_ value: String) throws -> KeySource {
        try saveNamedSecret(value, name: Self.lastFMSecretName)
    }

    /// Kept after `auth.getSession`: the session lasts until the user revokes it at Last.fm.
    public func saveLastFMSession(_ value: String) throws -> KeySource {
        try saveNamedSecret(value, name: Self.lastFMSessionName)
    }

    func namedSecretURL(_ name: String) -> URL {
        paths.configDirectory.appendingPathComponent("keys", isDirectory: true).appendingPathComponent("\(name).key")
    }

    func namedSecret(_ name: String, variable: String) -> (source: KeySource, value: String?) {
        if let value = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
            return (.environment(variable), value)
        }
        if let value = secrets?.lookup(secret: name), !value.isEmpty {
            return (.secretService, value)
        }
        let file = readKeyFile(namedSecretURL(name))
        return (file.source, file.key)
    }

    func saveNamedSecret(_ value: String, name: String) throws -> KeySource {
        if let secrets, secrets.store(value, secret: name) {
            try? FileManager.default.removeItem(at: namedSecretURL(name))
            return .secretService
        }
        try writeKeyFile(value, to: namedSecretURL(name))
        return .file(namedSecretURL(name).path)
    }
}
