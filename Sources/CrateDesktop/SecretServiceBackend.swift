import CSecret
import CrateCore

/// API keys in the desktop's Secret Service (GNOME Keyring, KWallet…) through libsecret.
/// Created only when a session bus answers; otherwise KeyStore falls back to a 0600 file.
struct SecretServiceBackend: SecretBackend {
    static func ifAvailable() -> SecretServiceBackend? {
        crate_secret_available() != 0 ? SecretServiceBackend() : nil
    }

    func lookup(provider: ProviderKind) -> String? {
        guard let key = crate_secret_lookup(provider.rawValue) else { return nil }
        defer { secret_password_free(key) }
        return String(cString: key)
    }

    func store(_ key: String, provider: ProviderKind) -> Bool {
        crate_secret_store(provider.rawValue, "Crate API key (\(provider.rawValue))", key) != 0
    }
}
