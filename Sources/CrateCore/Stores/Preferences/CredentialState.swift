/// A credential store's state: the last check and where the saved secret comes from.
public struct CredentialState: Equatable, Sendable {
    public var check: CredentialCheck = .idle
    /// "A token is saved (from the Secret Service). Paste a new one to replace it."; never the secret.
    public var status = ""

    public init() {}
}
