import Foundation

/// Preferences' "Connect Last.fm": asks Last.fm for a token, hands the approval page to the
/// browser, and on Done keeps the session key with the other secrets and turns scrobbling on
/// (docs/decisions/0042-listens-and-the-turntable.md). The same steps as `crate listens connect-lastfm`.
@MainActor
public final class LastFMConnectStore {
    public let state = ObservableValue(LastFMConnectState())
    /// Called with the approval page to open (the window hands it to the browser).
    public var onOpen: ((URL) -> Void)?
    /// Called once connected (the listens switch turns on).
    public var onConnected: (() -> Void)?
    private let settings: PreferencesSettings
    private var token: String?

    init(settings: PreferencesSettings) {
        self.settings = settings
        show()
    }

    private var client: LastFMClient {
        ListenSubmitters.lastFM(environment: settings.environment, settings: settings.effective)
    }

    /// Asks for a token and opens the approval page.
    public func connect() async {
        guard state.value.step == .idle else { return }
        let client = self.client
        guard client.hasApplication else { return fail(ListenSubmitError.notConfigured(.lastFM)) }
        state.update { $0.step = .asking; $0.errorMessage = nil }
        do {
            let token = try await client.requestToken()
            guard let url = client.approvalURL(token: token) else { throw ListenSubmitError.notConfigured(.lastFM) }
            self.token = token
            state.update { $0.step = .awaitingApproval(url); $0.linkCopied = false }
            onOpen?(url)
        } catch {
            fail(error)
        }
    }

    /// The user allowed Crate: the session key is fetched and kept; scrobbling turns on.
    public func finish() async {
        guard case .awaitingApproval = state.value.step, let token else { return }
        state.update { $0.step = .finishing }
        do {
            let session = try await client.session(token: token)
            let keys = settings.environment.keys
            try settings.save({ $0.listens.lastFM = true; $0.listens.lastFMUser = session.user.isEmpty ? nil : session.user }, also: { _ = try keys.saveLastFMSession(session.key) })
            self.token = nil
            state.update { $0.step = .idle; $0.connectedAs = session.user }
            show()
            onConnected?()
        } catch let error as PreferencesSaveError {
            fail(message: error.message)
        } catch {
            fail(error)
        }
    }

    /// No browser could open the page: its address was put on the clipboard instead.
    public func linkCopied() {
        guard case .awaitingApproval = state.value.step else { return }
        state.update { $0.linkCopied = true }
    }

    /// Back to the start (the user closed the page without allowing).
    public func cancel() {
        token = nil
        state.update { $0.step = .idle }
    }

    private func fail(_ error: Error) {
        fail(message: UserMessage.text(for: error))
    }

    private func fail(message: String) {
        token = nil
        state.update { $0.step = .idle; $0.errorMessage = message }
    }

    private func show() {
        let client = self.client
        state.update {
            $0.hasApplication = client.hasApplication
            $0.isConnected = settings.environment.keys.lastFMSession().value != nil
        }
    }
}
