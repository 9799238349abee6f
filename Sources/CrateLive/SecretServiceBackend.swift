import CCratePlugins
import CrateCore

/// API keys in the desktop's Secret Service (GNOME Keyring, KWallet…) through libsecret.
/// Used by the window and the CLI alike, so a key saved in Preferences works in `crate scan`.
/// libsecret is reached through libCrateSecret.so, opened only when there is a session bus to ask;
/// without the plugin the Secret Service is unavailable (key files still work).
public struct SecretServiceBackend: SecretBackend {
    private let calls: SecretCalls
    private var secret: crate_secret_table { calls.table }

    /// The backend when a Secret Service answers on the session bus, with the reason when not.
    /// `CRATE_SECRET_SERVICE=off` turns it off (tests, or a user who wants key files only).
    public static func probe(environment: [String: String]) -> (backend: SecretServiceBackend?, status: SecretServiceStatus) {
        if ["0", "off", "no", "false"].contains((environment["CRATE_SECRET_SERVICE"] ?? "").lowercased()) {
            return (nil, .disabled)
        }
        guard !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else {
            return (nil, .unavailable("no session bus"))
        }
        let table: UnsafeRawPointer
        do throws(PluginError) {
            table = try PluginLoader.table(.secret)
        } catch {
            return (nil, .unavailable(error.message))
        }
        let secret = table.assumingMemoryBound(to: crate_secret_table.self).pointee
        guard secret.available() != 0 else {
            return (nil, .unavailable("no Secret Service answered on the session bus"))
        }
        return (SecretServiceBackend(calls: SecretCalls(table: secret)), .available)
    }

    public func lookup(provider: ProviderKind) -> String? {
        guard let key = secret.lookup(provider.rawValue) else { return nil }
        defer { secret.free_password(key) }
        return String(cString: key)
    }

    public func store(_ key: String, provider: ProviderKind) -> Bool {
        secret.store(provider.rawValue, "Crate API key (\(provider.rawValue))", key) != 0
    }

    public func lookup(secret name: String) -> String? {
        guard let key = secret.lookup(name) else { return nil }
        defer { secret.free_password(key) }
        return String(cString: key)
    }

    public func store(_ value: String, secret name: String) -> Bool {
        secret.store(name, "Crate secret (\(name))", value) != 0
    }
}

/// The plugin's function table (plain C function pointers, callable from any thread).
private struct SecretCalls: @unchecked Sendable {
    let table: crate_secret_table
}
