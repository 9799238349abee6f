/// What differs between the "key or token + Test" flows (the provider's key, the ListenBrainz
/// and Discogs tokens): where the secret is kept, what the rows say, and how an answer or an
/// error reads. Data, so `CredentialCheckStore` is written once for all of them.
public struct Credential<Context: Sendable>: Sendable {
    /// Said when nothing is typed or saved; nil when the service needs no secret (Ollama).
    var missing: String?
    /// The saved secret and where it comes from (environment, Secret Service, 0600 file).
    var read: @Sendable (KeyStore) -> (source: KeySource, secret: String?)
    /// Stores a new secret: the Secret Service when there is one, else a 0600 file.
    var save: @Sendable (KeyStore, String) throws -> KeySource
    /// The status line for where the saved secret comes from.
    var status: @Sendable (KeySource) -> String
    /// What an accepted secret means for `Context` (a ListenBrainz token of another user is not).
    var verdict: @Sendable (_ identity: String, Context) -> CredentialCheck
    /// A failed check in plain words: `invalid`, or `offline` when the service was not reached.
    var explain: @Sendable (any Error, Context) -> CredentialCheck

    /// "A token is saved (…)", "No token saved. …", or why a saved one is refused.
    /// A refused key file says why (it used to read "A key is saved (refused: …)").
    static func statusLine(_ source: KeySource, missing: String, saved: (String) -> String) -> String {
        if source == .missing { return missing }
        if source.refusal != nil { return source.description }
        return saved(source.description)
    }
}
