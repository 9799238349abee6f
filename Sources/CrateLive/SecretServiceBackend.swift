import CSecret
import CrateCore

/// API keys in the desktop's Secret Service (GNOME Keyring, KWallet…) through libsecret.
/// Used by the window and the CLI alike, so a key saved in Preferences works in `crate scan`.
public struct SecretServiceBackend: SecretBackend {
    /// The backend when a Secret Service answers on the session bus, with the reason when not.
    /// `CRATE_SECRET_SERVICE=off` turns it off (tests, or a user who wants key files only).
    public static func probe(environment: [String: String]) -> (backend: SecretServiceBackend?, status: SecretServiceStatus) {
        if ["0", "off", "no", "false"].contains((environment["CRATE_SECRET_SERVICE"] ?? "").lowercased()) {
            return (nil, .disabled)
        }
        guard !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else {
            return (nil, .unavailable("no session bus"))
        }
        guard crate_secret_available() != 0 else {
            return (nil, .unavailable("no Secret Service answered on the session bus"))
        }
        return (SecretServiceBackend(), .available)
    }

    public func lookup(provider: ProviderKind) -> String? {
        guard let key = crate_secret_lookup(provider.rawValue) else { return nil }
        defer { secret_password_free(key) }
        return String(cString: key)
    }

    public func store(_ key: String, provider: ProviderKind) -> Bool {
        crate_secret_store(provider.rawValue, "Crate API key (\(provider.rawValue))", key) != 0
    }

    public func lookup(secret name: String) -> String? {
        guard let key = crate_secret_lookup(name) else { return nil }
        defer { secret_password_free(key) }
        return String(cString: key)
    }

    public func store(_ value: String, secret name: String) -> Bool {
        crate_secret_store(name, "Crate secret (\(name))", value) != 0
    }
}
