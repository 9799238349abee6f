/// How the last "Test" of a key or token went. The texts are whole sentences for the row under
/// the field; the secret itself never appears in them.
public enum CredentialCheck: Equatable, Sendable {
    /// Not tested since the secret (or what it is tested against) last changed.
    case idle
    case checking
    /// The service accepted it: `identity` is who it belongs to (the user name, or the model that
    /// answered), `message` what the row says.
    case valid(identity: String, message: String)
    /// Refused, missing, or belonging to someone else: the text says why.
    case invalid(String)
    /// The service could not be reached: nothing is known about the secret.
    case offline(String)

    /// What the row says, for every state but `idle`.
    public var message: String? {
        switch self {
        case .idle: return nil
        case .checking: return L10n.tr("Testing…")
        case .valid(_, let message), .invalid(let message), .offline(let message): return message
        }
    }

    public var isFailure: Bool {
        switch self {
        case .invalid, .offline: return true
        case .idle, .checking, .valid: return false
        }
    }
}
