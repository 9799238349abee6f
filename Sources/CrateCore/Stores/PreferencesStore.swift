import Foundation

/// What the Preferences window shows: the saved settings being edited, never the environment's
/// one-off overrides (those are named in `overrideNotice` instead).
public struct PreferencesState: Equatable, Sendable {
    public var provider: ProviderKind = .none
    /// The model as typed; empty means the provider's default (`modelPlaceholder`).
    public var model = ""
    public var modelPlaceholder = ""
    /// The selected provider's base URL, as typed.
    public var endpoint = ""
    public var advancedSearch = false
    public var contact = ""
    /// Where the selected provider's key comes from ("A key is saved (from …)"); never the key.
    public var keyStatus = ""
    /// False for `none`: model, endpoint and key mean nothing without a provider.
    public var providerFieldsEnabled = false
    public var keyFieldEnabled = false
    /// Which `CRATE_*` variables override the saved settings in this session, if any.
    public var overrideNotice: String?
    /// Fields a `CRATE_*` variable sets for this session, with the variable: they show the value
    /// in effect, cannot be edited here, and are never saved.
    public var setForSession: [PreferencesField: String] = [:]

    /// "Set by CRATE_PROVIDER for this session", for a field a variable sets.
    public func sessionNote(_ field: PreferencesField) -> String? {
        setForSession[field].map { L10n.tr("Set by %@ for this session", $0) }
    }
    public var errorMessage: String?
    /// Where to get a key for the selected provider (or, for Ollama, the program itself).
    public var keyLink: URL?
    public var keyLinkTitle = ""
    /// The last "Test connection" and how it went.
    public var connection: ConnectionTest = .untested
    /// The ListenBrainz user name as typed (empty: none).
    public var listenBrainzUser = ""
    /// Where the ListenBrainz token comes from ("A token is saved (…)"); never the token.
    public var listenBrainzTokenStatus = ""
    /// The last ListenBrainz "Test" and how it went.
    public var listenBrainzTest: ConnectionTest = .untested
    /// Where the Discogs token comes from ("A token is saved (…)"); never the token.
    public var discogsTokenStatus = ""
    /// The last Discogs "Test" and how it went.
    public var discogsTest: ConnectionTest = .untested
    /// The monthly budget as typed: empty means no limit.
    public var budgetScans = ""
    public var budgetCost = ""
    /// This month's usage, for the Usage group (nil until read).
    public var usage: UsageOverview?
    /// The music folders this session indexes (saved, or `$CRATE_MUSIC_DIRS`, else the default).
    public var musicFolders: [String] = []
    /// True when none is saved and `xdg-user-dir MUSIC` is used.
    public var musicFoldersAreDefault = true

    public init() {}
}

/// The Usage group's lines: this month's scans by tier, tokens, the estimated cost, the budget.
public struct UsageOverview: Equatable, Sendable {
    public var month: String
    public var scans: String
    public var tokens: String
    public var cost: String
    public var budget: String
    /// Why the user's price file is not used, when it is not.
    public var priceProblem: String?

    public init(_ summary: UsageSummary, calendar: Calendar = .current) {
        month = summary.month.spoken(in: calendar)
        scans = "\(summary.totalScans) — local \(summary.scans(.local)), vision \(summary.scans(.vision)), search \(summary.scans(.search))"
        tokens = "\(summary.calls) calls — \(summary.inputTokens) in, \(summary.outputTokens) out"
        var cost = UsageSummary.dollars(summary.estimatedCost)
        if summary.unpricedCalls > 0 { cost += " (\(summary.unpricedCalls) calls of unpriced models not included)" }
        self.cost = cost
        budget = summary.budget.isSet
            ? "\(Int((summary.status.fraction * 100).rounded(.down))) % used (\(summary.status.usedText))"
            : L10n.tr("No monthly budget")
        priceProblem = summary.priceProblem?.message
    }
}

/// "Test connection" in Preferences: one tiny request to the selected provider.
public enum ConnectionTest: Equatable, Sendable {
    case untested
    case testing
    /// It answered; the text says who.
    case succeeded(String)
    /// It did not; the text says why, in plain words.
    case failed(String)
}

/// Preferences as a store: validation, the provider → endpoint mapping, saving settings and keys.
/// The window only binds fields to these intents.
@MainActor
public final class PreferencesStore {
    /// The providers in the order the window lists them, with their display names.
    public static let providers: [(kind: ProviderKind, name: String)] = [
        (.none, L10n.tr("None — offline matching only")),
        (.anthropic, "Anthropic"),
        (.openai, "OpenAI"),
        (.ollama, L10n.tr("Ollama (local)")),
    ]

    public let state = ObservableValue(PreferencesState())
    /// Sends the test request; tests replace it. Defaults to the environment's transport.
    var testTransport: (any HTTPClient)?
    private var testTask: Task<Void, Never>?
    /// Called after a save with the settings the process now runs with (saved + overrides), so
    /// the app rebuilds its services in one place.
    public var onSaved: ((Settings) -> Void)?
    /// Called after a save that changed the provider or stored a key: photos that failed or
    /// waited get another try.
    public var onCredentialsChanged: (() -> Void)?
    /// Called after the music folders changed (the window re-indexes them).
    public var onMusicFoldersChanged: (() -> Void)?

    let environment: AppEnvironment
    var saved: Settings
    /// What was typed per provider, so switching back and forth keeps it until Save.
    private var endpointTexts: [ProviderKind: String] = [:]
    private var modelTexts: [ProviderKind: String] = [:]
    private var pendingKey = ""
    private var pendingListenBrainzToken = ""
    private var listenBrainzTestTask: Task<Void, Never>?
    private var pendingDiscogsToken = ""
    private var discogsTestTask: Task<Void, Never>?

    public init(environment: AppEnvironment) {
        self.environment = environment
        var loadError: String?
        do {
            saved = try environment.savedSettings()
        } catch {
            saved = Settings()
            loadError = UserMessage.text(for: error)
        }
        for (kind, _) in Self.providers {
            endpointTexts[kind] = kind.endpointKeyPath.map { saved.endpoints[keyPath: $0].absoluteString } ?? ""
        }
        modelTexts[saved.provider] = saved.model ?? ""
        // What this session runs with: a field a variable sets shows that value, marked.
        let effective = (try? saved.applyingOverrides(from: environment.variables)) ?? saved
        let variables = environment.variables
        var setForSession: [PreferencesField: String] = [:]
        for field in PreferencesField.allCases {
            if let name = PreferencesField.variable(for: field, provider: effective.provider, in: variables) { setForSession[field] = name }
        }
        if setForSession[.model] != nil { modelTexts[effective.provider] = effective.model ?? "" }
        if setForSession[.endpoint] != nil, let keyPath = effective.provider.endpointKeyPath {
            endpointTexts[effective.provider] = effective.endpoints[keyPath: keyPath].absoluteString
        }
        if setForSession[.provider] != nil, setForSession[.model] == nil { modelTexts[effective.provider] = effective.model ?? "" }
        var initial = PreferencesState()
        initial.setForSession = setForSession
        initial.advancedSearch = setForSession[.advancedSearch] != nil ? effective.advancedSearch : saved.advancedSearch
        initial.contact = setForSession[.contact] != nil ? effective.musicBrainzContact : saved.musicBrainzContact
        initial.listenBrainzUser = (setForSession[.listenBrainzUser] != nil ? effective.listenBrainzUser : saved.listenBrainzUser) ?? ""
        initial.budgetScans = saved.monthlyBudget.scans.map(String.init) ?? ""
        initial.budgetCost = saved.monthlyBudget.cost.map { String(format: "%.2f", $0) } ?? ""
        initial.errorMessage = loadError
        let overrides = Settings.activeOverrides(in: environment.variables)
        if !overrides.isEmpty {
            let names = overrides.map { "$" + $0 }.joined(separator: ", ")
            initial.overrideNotice = overrides.count == 1
                ? L10n.tr("This session also uses %@, which wins over what is saved here and is never saved.", names)
                : L10n.tr("This session also uses %@, which win over what is saved here and are never saved.", names)
        }
        state.set(initial)
        showMusicFolders()
        showProvider(setForSession[.provider] != nil ? effective.provider : saved.provider)
        showListenBrainzToken()
        showDiscogsToken()
    }

    // MARK: - Intents

    public func selectProvider(_ kind: ProviderKind) {
        guard kind != state.value.provider else { return }
        pendingKey = ""  // A key typed for one provider is never saved for another.
        showProvider(kind)
    }

    public func setModel(_ text: String) {
        modelTexts[state.value.provider] = text
        state.update { $0.model = text }
    }

    public func setEndpoint(_ text: String) {
        endpointTexts[state.value.provider] = text
        state.update { $0.endpoint = text; $0.errorMessage = nil }
    }

    public func setAdvancedSearch(_ on: Bool) {
        state.update { $0.advancedSearch = on }
    }

    /// The monthly scan budget as typed (empty: none); saved by `save()`.
    public func setBudgetScans(_ text: String) {
        state.update { $0.budgetScans = text; $0.errorMessage = nil }
    }

    /// The monthly cost budget in dollars as typed (empty: none); saved by `save()`.
    public func setBudgetCost(_ text: String) {
        state.update { $0.budgetCost = text; $0.errorMessage = nil }
    }

    /// Reads this month's usage (off the main actor) into `state.usage`.
    public func refreshUsage() async {
        let environment = self.environment
        let settings = (try? environment.settings()) ?? saved
        let overview: UsageOverview? = await Task.detached {
            let meter = environment.services(settings: settings, offline: true).usage
            return (try? meter.summary()).map { UsageOverview($0, calendar: meter.calendar) }
        }.value
        state.update { $0.usage = overview }
    }

    /// The budget typed in the two fields, or the sentence saying what is wrong with it.
    public static func budget(scans: String, cost: String) -> Result<UsageBudget, BudgetInputError> {
        var budget = UsageBudget()
        let scans = scans.trimmingCharacters(in: .whitespaces)
        if !scans.isEmpty {
            guard let value = Int(scans), (1...1_000_000).contains(value) else { return .failure(.scans) }
            budget.scans = value
        }
        let cost = cost.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "$", with: "").replacingOccurrences(of: ",", with: ".")
        if !cost.isEmpty {
            guard let value = Double(cost), value.isFinite, value > 0, value <= 1_000_000 else { return .failure(.cost) }
            budget.cost = value
        }
        return .success(budget)
    }

    public func setContact(_ text: String) {
        state.update { $0.contact = text }
    }

    /// The ListenBrainz user whose listening feeds the wall (saved by `save()`).
    public func setListenBrainzUser(_ text: String) {
        state.update {
            $0.listenBrainzUser = text
            $0.listenBrainzTest = .untested
        }
    }

    /// A ListenBrainz user token; stored only by `save()` (Secret Service, else a 0600 file),
    /// never kept in `state`.
    public func setListenBrainzToken(_ text: String) {
        pendingListenBrainzToken = text
    }

    /// A key typed for the selected provider; stored only by `save()`, never kept in `state`.
    public func setKey(_ text: String) {
        pendingKey = text
    }

    /// Validates and saves settings (and a typed key). False, with `errorMessage` set, when
    /// something must be fixed first; nothing is written then.
    @discardableResult
    public func save() -> Bool {
        var current = state.value
        // A key typed belongs to the provider shown (the one this session uses).
        let keyProvider = current.provider
        // A field set by a variable shows this session's value: the saved one stays saved.
        let session = current.setForSession
        if session[.provider] != nil { current.provider = saved.provider }
        if session[.model] != nil || session[.provider] != nil { current.model = saved.model ?? "" }
        if session[.endpoint] != nil || session[.provider] != nil {
            current.endpoint = current.provider.endpointKeyPath.map { saved.endpoints[keyPath: $0].absoluteString } ?? ""
        }
        if session[.advancedSearch] != nil { current.advancedSearch = saved.advancedSearch }
        if session[.contact] != nil { current.contact = saved.musicBrainzContact }
        if session[.listenBrainzUser] != nil { current.listenBrainzUser = saved.listenBrainzUser ?? "" }
        var next = saved
        next.provider = current.provider
        if let keyPath = current.provider.endpointKeyPath {
            guard let url = Self.endpointURL(current.endpoint) else {
                state.update { $0.errorMessage = L10n.tr("The endpoint must be an http:// or https:// address.") }
                return false
            }
            next.endpoints[keyPath: keyPath] = url
        }
        let model = current.model.trimmingCharacters(in: .whitespaces)
        next.model = current.provider == .none || model.isEmpty ? nil : model
        next.advancedSearch = current.advancedSearch
        let contact = current.contact.trimmingCharacters(in: .whitespaces)
        if !contact.isEmpty { next.musicBrainzContact = contact }
        let listenBrainzUser = current.listenBrainzUser.trimmingCharacters(in: .whitespaces)
        if listenBrainzUser.contains(where: { $0 == "/" || $0.isNewline }) {
            state.update { $0.errorMessage = L10n.tr("A ListenBrainz user name cannot contain a slash or a line break.") }
            return false
        }
        next.listenBrainzUser = listenBrainzUser.isEmpty ? nil : listenBrainzUser
        let listenBrainzToken = pendingListenBrainzToken.trimmingCharacters(in: .whitespacesAndNewlines)
        let discogsToken = pendingDiscogsToken.trimmingCharacters(in: .whitespacesAndNewlines)
        switch Self.budget(scans: current.budgetScans, cost: current.budgetCost) {
        case .success(let budget): next.monthlyBudget = budget
        case .failure(let problem):
            state.update { $0.errorMessage = problem.message }
            return false
        }
        let key = pendingKey.trimmingCharacters(in: .whitespacesAndNewlines)
        let credentialsChanged = next.provider != saved.provider || (!key.isEmpty && keyProvider != .none)
            || next.endpoints != saved.endpoints || next.model != saved.model
        do {
            try next.save(paths: environment.paths)
            if !key.isEmpty, keyProvider != .none { _ = try environment.keys.save(key, for: keyProvider) }
            if !listenBrainzToken.isEmpty { _ = try environment.keys.saveListenBrainzToken(listenBrainzToken) }
            if !discogsToken.isEmpty { _ = try environment.keys.saveDiscogsToken(discogsToken) }
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return false
        }
        saved = next
        pendingKey = ""
        pendingListenBrainzToken = ""
        pendingDiscogsToken = ""
        state.update { $0.errorMessage = nil }
        showListenBrainzToken()
        showDiscogsToken()
        // The variables were valid when the process started; if not, the saved settings stand.
        onSaved?((try? next.applyingOverrides(from: environment.variables)) ?? next)
        showProvider(current.provider)
        Task { await refreshUsage() }
        if credentialsChanged, next.provider != .none { onCredentialsChanged?() }
        return true
    }

    /// Sends one tiny request to the selected provider, with the endpoint, model and key as they
    /// are now (a typed key is used before it is saved), and reports how it went in
    /// `state.connection`. Never records usage and never saves anything.
    public func testConnection() {
        let current = state.value
        guard current.provider != .none else {
            state.update { $0.connection = .failed(L10n.tr("Choose a provider first.")) }
            return
        }
        let kind = current.provider
        guard let keyPath = kind.endpointKeyPath, let typedEndpoint = Self.endpointURL(current.endpoint) else {
            state.update { $0.connection = .failed(L10n.tr("The endpoint must be an http:// or https:// address.")) }
            return
        }
        // The endpoint this session would really use: a `CRATE_*_URL` override wins, as it does
        // for scans.
        var candidate = saved
        candidate.endpoints[keyPath: keyPath] = typedEndpoint
        let endpoint = ((try? candidate.applyingOverrides(from: environment.variables)) ?? candidate).endpoints[keyPath: keyPath]
        let typed = pendingKey.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = typed.isEmpty ? environment.keys.key(for: kind) : typed
        if kind.needsKey, key == nil {
            state.update { $0.connection = .failed(ProviderError.missingKey(kind).message) }
            return
        }
        let model = current.model.trimmingCharacters(in: .whitespaces).isEmpty ? ProviderFactory.defaultModel(for: kind) : current.model
        let http = testTransport ?? environment.transport
        let provider: any LLMProvider
        switch kind {
        case .anthropic: provider = AnthropicProvider(apiKey: key ?? "", model: model, baseURL: endpoint, http: http)
        case .openai, .ollama: provider = OpenAICompatibleProvider(kind: kind, apiKey: key, model: model, baseURL: endpoint, http: http)
        case .none: return
        }
        state.update { $0.connection = .testing }
        testTask?.cancel()
        testTask = Task { [weak self] in
            let request = LLMRequest(system: "Answer with the single word OK.", user: "Connection test from Crate.", purpose: .review, maxOutputTokens: 8)
            let outcome: ConnectionTest
            do {
                let response = try await provider.complete(request)
                outcome = .succeeded("Connected: \(kind.displayName) answered (model \(response.model)).")
            } catch let error as ProviderError where ScanFailure.isUnreachable(error) {
                outcome = .failed(L10n.tr("Crate could not reach %@ at %@. Check the address and the internet connection.", kind.displayName, endpoint.host ?? endpoint.absoluteString))
            } catch {
                outcome = .failed(UserMessage.text(for: error))
            }
            guard !Task.isCancelled, let self, self.state.value.provider == kind else { return }
            self.state.update { $0.connection = outcome }
        }
    }

    /// ListenBrainz "Test": checks the token (typed, else saved) with `validate-token` and that
    /// it belongs to the user name typed. Never saves anything.
    public func testListenBrainz() {
        let typed = pendingListenBrainzToken.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = typed.isEmpty ? environment.keys.listenBrainzToken().token : typed
        let user = state.value.listenBrainzUser.trimmingCharacters(in: .whitespaces)
        guard let token else {
            state.update { $0.listenBrainzTest = .failed(L10n.tr("Paste your ListenBrainz user token first (from your ListenBrainz settings page).")) }
            return
        }
        let settings = (try? saved.applyingOverrides(from: environment.variables)) ?? saved
        let client = ListenBrainzClient.live(settings: settings, user: user.isEmpty ? nil : user, token: token,
                                             transport: testTransport ?? environment.transport, limiter: environment.limiter)
        state.update { $0.listenBrainzTest = .testing }
        listenBrainzTestTask?.cancel()
        listenBrainzTestTask = Task { [weak self] in
            let outcome: ConnectionTest
            do {
                let name = try await client.validateToken()
                if user.isEmpty {
                    outcome = .succeeded(L10n.tr("The token belongs to %@. Type %@ as the user name to use your listening.", name, name))
                } else if name.caseInsensitiveCompare(user) == .orderedSame {
                    outcome = .succeeded(L10n.tr("Connected as %@.", name))
                } else {
                    outcome = .failed(L10n.tr("This token belongs to %@, not %@.", name, user))
                }
            } catch {
                outcome = .failed(UserMessage.text(for: error))
            }
            guard !Task.isCancelled, let self else { return }
            self.state.update { $0.listenBrainzTest = outcome }
        }
    }

    /// A Discogs personal token; stored only by `save()` (Secret Service, else a 0600 file),
    /// never kept in the state.
    public func setDiscogsToken(_ text: String) {
        pendingDiscogsToken = text
        state.update { $0.discogsTest = .untested }
    }

    /// Discogs "Test": asks Discogs whose token it is (`/oauth/identity`) with the token typed,
    /// else the one saved. Never saves anything.
    public func testDiscogs() {
        let typed = pendingDiscogsToken.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token = typed.isEmpty ? environment.keys.discogsToken().token : typed else {
            state.update { $0.discogsTest = .failed(L10n.tr("Paste your Discogs personal access token first (Discogs → Settings → Developers).")) }
            return
        }
        let settings = (try? saved.applyingOverrides(from: environment.variables)) ?? saved
        // No retry and no long pacing wait: a person is waiting for this answer.
        var policy = DiscogsClient.retryPolicy
        policy.maxAttempts = 1
        policy.failFastAfter = 5
        let client = DiscogsClient(http: ResilientHTTPClient(base: testTransport ?? environment.transport, policy: policy, limiter: environment.limiter),
                                   limiter: environment.limiter, baseURL: settings.endpoints.discogs, token: token,
                                   contact: settings.musicBrainzContact)
        state.update { $0.discogsTest = .testing }
        discogsTestTask?.cancel()
        discogsTestTask = Task { [weak self] in
            let outcome: ConnectionTest
            do {
                let name = try await client.identity()
                outcome = .succeeded(L10n.tr("Connected as %@.", name))
            } catch DiscogsError.tokenRejected {
                outcome = .failed(Self.discogsTokenRefused)
            } catch DiscogsError.network(let error) {
                outcome = .failed(error.unreachable("Discogs"))
            } catch {
                outcome = .failed(UserMessage.text(for: error))
            }
            guard !Task.isCancelled, let self else { return }
            self.state.update { $0.discogsTest = outcome }
        }
    }

    public static let discogsTokenRefused = L10n.tr("Discogs did not accept this token. Copy it again from Discogs → Settings → Developers.")

    /// Waits for a running Discogs test (tests).
    public func waitForDiscogsTest() async {
        await discogsTestTask?.value
    }

    /// Waits for a running ListenBrainz test (tests).
    public func waitForListenBrainzTest() async {
        await listenBrainzTestTask?.value
    }

    /// Waits for a running connection test (tests).
    public func waitForConnectionTest() async {
        await testTask?.value
    }

    /// Where to get a key for `kind` (Ollama: where to get Ollama).
    public static func keyLink(for kind: ProviderKind) -> (title: String, url: URL)? {
        switch kind {
        case .anthropic: return (L10n.tr("Get an Anthropic API key"), URL(string: "https://console.anthropic.com/settings/keys")!)
        case .openai: return (L10n.tr("Get an OpenAI API key"), URL(string: "https://platform.openai.com/api-keys")!)
        case .ollama: return (L10n.tr("Install Ollama (runs on this computer, no key)"), URL(string: "https://ollama.com/download")!)
        case .none: return nil
        }
    }

    // MARK: - Private

    private func showDiscogsToken() {
        let source = environment.keys.discogsToken().source
        let status: String
        switch source {
        case .missing: status = L10n.tr("No token saved. Without one, albums are not linked to Discogs.")
        case .refusedInsecureFile, .refusedInsecureDirectory: status = source.description
        default: status = L10n.tr("A token is saved (%@). Paste a new one to replace it.", source.description)
        }
        state.update { $0.discogsTokenStatus = status }
    }

    private func showListenBrainzToken() {
        let source = environment.keys.listenBrainzToken().source
        let status: String
        switch source {
        case .missing: status = L10n.tr("No token saved. Without one, favourites and dislikes stay on this computer.")
        case .refusedInsecureFile, .refusedInsecureDirectory: status = source.description
        default: status = L10n.tr("A token is saved (%@). Paste a new one to replace it.", source.description)
        }
        state.update { $0.listenBrainzTokenStatus = status }
    }

    private func showProvider(_ kind: ProviderKind) {
        let source = environment.keys.source(for: kind)
        let keyStatus: String
        switch source {
        case .missing: keyStatus = kind == .none ? "" : (kind.needsKey ? L10n.tr("No key saved. Paste one above.") : L10n.tr("No key needed."))
        case .refusedInsecureFile, .refusedInsecureDirectory: keyStatus = source.description
        default: keyStatus = L10n.tr("A key is saved (%@). Type a new one to replace it.", source.description)
        }
        let changed = state.value.provider != kind
        if changed { testTask?.cancel() }
        state.update {
            $0.provider = kind
            $0.model = modelTexts[kind] ?? ""
            $0.modelPlaceholder = ProviderFactory.defaultModel(for: kind)
            $0.endpoint = endpointTexts[kind] ?? ""
            $0.providerFieldsEnabled = kind != .none
            $0.keyFieldEnabled = kind.needsKey || kind == .ollama
            $0.keyStatus = keyStatus
            $0.keyLink = Self.keyLink(for: kind)?.url
            $0.keyLinkTitle = Self.keyLink(for: kind)?.title ?? ""
            if changed { $0.connection = .untested }
        }
    }

    private static func endpointURL(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else { return nil }
        return url
    }
}

/// A Preferences field that a `CRATE_*` variable can set for one session.
public enum PreferencesField: String, Hashable, Sendable, CaseIterable {
    case provider, model, endpoint, contact, advancedSearch, listenBrainzUser

    /// The variable that sets the field in `environment`, if one does (for `provider`'s endpoint).
    static func variable(for field: PreferencesField, provider: ProviderKind, in environment: [String: String]) -> String? {
        let candidates: [String]
        switch field {
        case .provider: candidates = ["CRATE_PROVIDER"]
        case .model: candidates = ["CRATE_MODEL"]
        case .endpoint:
            let own = Endpoints.environmentKeys.first { $0.keyPath == provider.endpointKeyPath }.map(\.name)
            candidates = ["CRATE_PROVIDER_URL"] + (own.map { [$0] } ?? [])
        case .contact: candidates = ["CRATE_CONTACT", "CRATE_MUSICBRAINZ_CONTACT"]
        case .advancedSearch: candidates = ["CRATE_ADVANCED_SEARCH"]
        case .listenBrainzUser: candidates = ["CRATE_LISTENBRAINZ_USER"]
        }
        return candidates.first { !(environment[$0] ?? "").isEmpty }
    }
}

/// A monthly budget typed in Preferences that cannot be used.
public enum BudgetInputError: Error, Equatable, Sendable {
    case scans
    case cost

    public var message: String {
        switch self {
        case .scans: return L10n.tr("The monthly scan budget must be a whole number of scans from 1 to 1000000, or empty for no limit.")
        case .cost: return L10n.tr("The monthly cost budget must be an amount of dollars above 0 (such as 5.00), or empty for no limit.")
        }
    }
}

extension BudgetInputError: LocalizedError {
    public var errorDescription: String? { message }
}
