import Foundation

/// One "key or token + Test" flow: the secret as typed (never in `state`), where the saved one
/// comes from, a check against the service through `client`, and saving a typed secret. The
/// provider's key and the ListenBrainz and Discogs tokens are instances of it; what differs
/// between them is `Credential` data.
@MainActor
public final class CredentialCheckStore<Context: Sendable> {
    public let state = ObservableValue(CredentialState())
    private(set) var credential: Credential<Context>
    private let client: CredentialClient<Context>
    private let keys: KeyStore
    private var typed = ""
    private var running: Task<Void, Never>?
    /// Bumped by every check and every change: an answer to an older one is dropped, so a slow
    /// check never overwrites a newer one (or a secret edited since).
    private var generation = 0

    init(_ credential: Credential<Context>, client: CredentialClient<Context>, keys: KeyStore) {
        self.credential = credential
        self.client = client
        self.keys = keys
        showStatus()
    }

    /// The secret as typed. An edit cancels a check under way: its answer would be about
    /// another secret.
    public func setSecret(_ text: String) {
        guard text != typed else { return }
        typed = text
        reset()
    }

    /// Forgets the last check and cancels one under way (what it was tested against changed).
    public func reset() {
        cancelRunning()
        if state.value.check != .idle { state.update { $0.check = .idle } }
    }

    /// Tests the typed secret, else the saved one, against `context`. Never saves anything.
    public func check(_ context: Context) {
        let typed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = typed.isEmpty ? credential.read(keys).secret : typed
        if secret == nil, let missing = credential.missing {
            fail(missing)
            return
        }
        cancelRunning()
        let generation = generation
        let credential = credential, client = client
        state.update { $0.check = .checking }
        running = Task { [weak self] in
            let outcome: CredentialCheck
            do {
                outcome = credential.verdict(try await client.validate(secret ?? "", context), context)
            } catch {
                outcome = credential.explain(error, context)
            }
            guard let self, self.generation == generation else { return }
            self.running = nil
            self.state.update { $0.check = outcome }
        }
    }

    /// Says why the check cannot be made (no provider, a bad endpoint) without asking anyone.
    public func fail(_ message: String) {
        cancelRunning()
        state.update { $0.check = .invalid(message) }
    }

    /// True when a secret was typed (saved by `saveTyped`).
    var hasTyped: Bool { !typed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }

    /// Stores a typed secret and forgets it, then shows where the saved one comes from.
    func saveTyped() throws {
        let secret = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if !secret.isEmpty {
            _ = try credential.save(keys, secret)
            typed = ""
        }
        showStatus()
    }

    /// Another secret (the provider changed): what was typed is dropped, never saved for it.
    func use(_ credential: Credential<Context>) {
        self.credential = credential
        typed = ""
        reset()
        showStatus()
    }

    private func cancelRunning() {
        generation += 1
        running?.cancel()
        running = nil
    }

    private func showStatus() {
        let status = credential.status(credential.read(keys).source)
        if status != state.value.status { state.update { $0.status = status } }
    }
}
