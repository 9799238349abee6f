/// Asks a service whose secret this is: the only thing a "Test" button does. The app uses the
/// `live` values (`CredentialClient+Live.swift`); tests pass their own closure, so no test needs
/// a hook in the store or a server to check its states.
public struct CredentialClient<Context: Sendable>: Sendable {
    /// Who the secret belongs to (a user name, or the model that answered), or why not. An empty
    /// secret means "none" (Ollama needs no key).
    public var validate: @Sendable (_ secret: String, _ context: Context) async throws -> String

    public init(validate: @escaping @Sendable (_ secret: String, _ context: Context) async throws -> String) {
        self.validate = validate
    }

    /// A client that always answers `identity` (previews and tests).
    public static func answering(_ identity: String) -> CredentialClient {
        CredentialClient { _, _ in identity }
    }

    /// A client that always fails with `error` (previews and tests).
    public static func failing(_ error: any Error & Sendable) -> CredentialClient {
        CredentialClient { _, _ in throw error }
    }
}
