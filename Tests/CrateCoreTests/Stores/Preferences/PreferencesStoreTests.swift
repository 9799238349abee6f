import CrateTestSupport
import Foundation
import Synchronization
import Testing
@testable import CrateCore

/// An in-memory Secret Service shared by the "processes" of a test.
final class MemorySecrets: SecretBackend, Sendable {
    private let keys = Mutex<[ProviderKind: String]>([:])

    func lookup(provider: ProviderKind) -> String? {
        keys.withLock { $0[provider] }
    }

    func store(_ key: String, provider: ProviderKind) -> Bool {
        keys.withLock { $0[provider] = key }
        return true
    }
}

@Suite("Preferences store")
@MainActor
struct PreferencesStoreTests {
    private func environment(_ dir: TemporaryDirectory, variables: [String: String] = [:], secrets: (any SecretBackend)? = nil) throws -> AppEnvironment {
        AppEnvironment(paths: dir.paths, variables: variables, database: try AppDatabase.inMemory(), secrets: secrets)
    }

    /// Bug: saving Preferences wrote the process's `CRATE_*` overrides into settings.json, so a
    /// one-off `CRATE_MUSICBRAINZ_URL` became permanent.
    @Test func savingNeverWritesEnvironmentOverrides() throws {
        // Given a session started with overrides
        let dir = try TemporaryDirectory()
        let variables = ["CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:9999/ws/2", "CRATE_PROVIDER": "ollama", "CRATE_MODEL": "llava"]
        var applied: Settings?
        let store = PreferencesStore(environment: try environment(dir, variables: variables), onSaved: { applied = $0 })
        #expect(store.settings.overrideNotice?.contains("$CRATE_MUSICBRAINZ_URL") == true)

        // When the user changes what the variables leave alone and saves
        store.accounts.setContact("me@example.org")
        #expect(store.accounts.save())

        // Then the file holds the user's choices and none of the overrides
        let text = try String(contentsOf: dir.paths.settingsURL, encoding: .utf8)
        #expect(!text.contains("9999") && !text.contains("llava"))
        let saved = try Settings.loadSaved(paths: dir.paths)
        #expect(saved.provider == .none && saved.model == nil)
        #expect(saved.musicBrainzContact == "me@example.org")
        #expect(saved.endpoints.musicBrainz == Endpoints.defaults.musicBrainz)
        // …while the running app keeps using them
        #expect(applied?.endpoints.musicBrainz.absoluteString == "http://127.0.0.1:9999/ws/2")
        #expect(applied?.provider == .ollama)
    }

    /// With CRATE_PROVIDER=anthropic the Provider row said "None" and Test Connection named a
    /// model that was not in use: a field a variable sets shows the value in effect, marked.
    @Test func fieldsSetByVariablesShowTheValueInEffect() throws {
        let dir = try TemporaryDirectory()
        let variables = ["CRATE_PROVIDER": "anthropic", "CRATE_MODEL": "claude-test-model", "CRATE_PROVIDER_URL": "http://127.0.0.1:7000",
                         "CRATE_CONTACT": "session@example.org"]
        let store = PreferencesStore(environment: try environment(dir, variables: variables))
        let state = store.provider.state.value
        #expect(state.provider == .anthropic)
        #expect(state.model == "claude-test-model")
        #expect(state.endpoint == "http://127.0.0.1:7000")
        #expect(store.accounts.state.value.contact == "session@example.org")
        #expect(store.settings.setForSession == [.provider: "CRATE_PROVIDER", .model: "CRATE_MODEL", .endpoint: "CRATE_PROVIDER_URL", .contact: "CRATE_CONTACT"])
        #expect(store.settings.sessionNote(.provider) == "Set by CRATE_PROVIDER for this session")
        #expect(store.settings.sessionNote(.listenBrainzUser) == nil)
        // A key typed goes to the provider shown; the variables' values are not saved.
        store.provider.key.setSecret("sk-typed-for-anthropic")
        #expect(store.provider.save())
        #expect(store.accounts.save())
        let saved = try Settings.loadSaved(paths: dir.paths)
        #expect(saved.provider == .none && saved.model == nil && saved.musicBrainzContact != "session@example.org")
        #expect(store.settings.environment.keys.key(for: .anthropic) == "sk-typed-for-anthropic")
        // …and the provider in effect stays shown after the save.
        #expect(store.provider.state.value.provider == .anthropic)
    }

    @Test func aBadEndpointIsRefusedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let store = PreferencesStore(environment: try environment(dir)).provider
        store.selectProvider(.openai)
        store.setEndpoint("ftp://example.org")
        #expect(!store.save())
        #expect(store.state.value.errorMessage == "The endpoint must be an http:// or https:// address.")
        #expect(!FileManager.default.fileExists(atPath: dir.paths.settingsURL.path))
        store.setEndpoint("https://proxy.example.org/v1")
        #expect(store.save())
        #expect(store.state.value.errorMessage == nil)
    }

    @Test func endpointsAndModelsAreKeptPerProviderWhileSwitching() throws {
        let dir = try TemporaryDirectory()
        let store = PreferencesStore(environment: try environment(dir)).provider
        store.selectProvider(.ollama)
        #expect(store.state.value.endpoint == Endpoints.defaults.ollama.absoluteString)
        #expect(store.state.value.modelPlaceholder == ProviderFactory.defaultModel(for: .ollama))
        store.setEndpoint("http://192.168.1.5:11434")
        store.setModel("llava:13b")
        store.selectProvider(.anthropic)
        #expect(store.state.value.endpoint == Endpoints.defaults.anthropic.absoluteString)
        #expect(store.state.value.model == "")
        store.selectProvider(.ollama)
        #expect(store.state.value.endpoint == "http://192.168.1.5:11434")
        #expect(store.state.value.model == "llava:13b")
        #expect(store.save())
        let saved = try Settings.loadSaved(paths: dir.paths)
        #expect(saved.endpoints.ollama.absoluteString == "http://192.168.1.5:11434")
        #expect(saved.model == "llava:13b")
    }

    /// A key typed for one provider must never be saved under another.
    @Test func switchingProviderDropsATypedKey() throws {
        let dir = try TemporaryDirectory()
        let secrets = MemorySecrets()
        let store = PreferencesStore(environment: try environment(dir, secrets: secrets)).provider
        store.selectProvider(.anthropic)
        store.key.setSecret("sk-ant-typed")
        store.selectProvider(.openai)
        #expect(store.save())
        #expect(secrets.lookup(provider: .openai) == nil)
        #expect(secrets.lookup(provider: .anthropic) == nil)
    }

    /// Bug: the CLI built its key store without the Secret Service, so a key saved in
    /// Preferences (which deletes the key file) was invisible to `crate scan`.
    @Test func aKeySavedInPreferencesIsFoundByAnotherProcessEnvironment() throws {
        let dir = try TemporaryDirectory()
        let secrets = MemorySecrets()
        let store = PreferencesStore(environment: try environment(dir, secrets: secrets)).provider
        store.selectProvider(.anthropic)
        store.key.setSecret("  sk-ant-saved\n")
        #expect(store.save())
        #expect(store.key.state.value.status.contains("Secret Service"))
        #expect(!FileManager.default.fileExists(atPath: KeyStore(paths: dir.paths).keyFileURL(for: .anthropic).path))

        // A second process builds its own environment from the same places.
        let cli = try environment(dir, secrets: secrets)
        #expect(cli.keys.key(for: .anthropic) == "sk-ant-saved")
        let settings = try cli.settings()
        #expect(ProviderFactory.makeBare(settings: settings, keys: cli.keys, http: cli.transport) is AnthropicProvider)
    }

    @Test func aMalformedSettingsFileIsReportedNotHidden() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.paths.configDirectory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: dir.paths.settingsURL)
        let store = PreferencesStore(environment: try environment(dir)).provider
        #expect(store.state.value.errorMessage?.contains("not valid JSON") == true)
    }
}

@Suite("Preferences: test connection and key link")
@MainActor
struct PreferencesConnectionTests {
    private func store(_ dir: TemporaryDirectory, endpoint: URL) throws -> ProviderPreferencesStore {
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: try AppDatabase.inMemory(), transport: CurlHTTPClient())
        let store = PreferencesStore(environment: environment).provider
        store.selectProvider(.anthropic)
        store.setEndpoint(endpoint.absoluteString)
        return store
    }

    @Test func aWorkingKeySaysConnected() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(ProviderFixtures.anthropicMessage("OK"))])
        let dir = try TemporaryDirectory()
        let store = try store(dir, endpoint: server.url(""))
        store.key.setSecret("sk-typed-but-not-saved")
        store.testConnection()
        #expect(store.key.state.value.check == .checking)
        guard case .valid(_, let text) = await settled(store.key) else { Issue.record("\(store.key.state.value.check)"); return }
        #expect(text.contains("Anthropic"))
        #expect(server.requests(path: "/v1/messages").first?.headers["x-api-key"] == "sk-typed-but-not-saved")
        #expect(!FileManager.default.fileExists(atPath: dir.paths.settingsURL.path), "a test saves nothing")
    }

    @Test func aRefusedKeyAndADeadEndpointSayWhyInPlainWords() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(ProviderFixtures.anthropicAuthError, status: 401)])
        let dir = try TemporaryDirectory()
        let refused = try store(dir, endpoint: server.url(""))
        refused.key.setSecret("sk-wrong")
        refused.testConnection()
        #expect(await settled(refused.key) == .invalid(ProviderError.invalidKey(.anthropic, status: 401).message))

        let dead = try store(dir, endpoint: URL(string: "http://127.0.0.1:9")!)
        dead.key.setSecret("sk-any")
        dead.testConnection()
        guard case .offline(let text) = await settled(dead.key) else { Issue.record("not offline: \(dead.key.state.value.check)"); return }
        #expect(text.contains("could not reach Anthropic"))
        #expect(!text.contains("refused") && !text.contains("connect ("), "no transport text: \(text)")
    }

    @Test func noKeyIsSaidBeforeAnyRequest() throws {
        let dir = try TemporaryDirectory()
        let store = try store(dir, endpoint: URL(string: "http://127.0.0.1:9")!)
        store.testConnection()
        #expect(store.key.state.value.check == .invalid(ProviderError.missingKey(.anthropic).message))
    }

    @Test func eachProviderLinksToWhereItsKeyComesFrom() throws {
        let dir = try TemporaryDirectory()
        let store = PreferencesStore(environment: AppEnvironment(paths: dir.paths, variables: [:], database: try AppDatabase.inMemory())).provider
        #expect(store.state.value.keyLink == nil)
        store.selectProvider(.anthropic)
        #expect(store.state.value.keyLink?.host == "console.anthropic.com")
        store.selectProvider(.openai)
        #expect(store.state.value.keyLink?.host == "platform.openai.com")
        store.selectProvider(.ollama)
        #expect(store.state.value.keyLink?.host == "ollama.com")
    }
}

@Suite("Preferences: ListenBrainz account")
@MainActor
struct PreferencesListenBrainzTests {
    private func store(_ dir: TemporaryDirectory, server: FixtureServer? = nil) throws -> AccountsPreferencesStore {
        var variables: [String: String] = [:]
        if let server { variables["CRATE_LISTENBRAINZ_URL"] = server.baseURL.absoluteString }
        let environment = AppEnvironment(paths: dir.paths, variables: variables, database: try AppDatabase.inMemory(),
                                         secrets: MemorySecrets(), transport: CurlHTTPClient())
        return PreferencesStore(environment: environment).accounts
    }

    @Test func theUserNameIsSavedAndTheTokenGoesToA0600FileNeverIntoState() throws {
        let dir = try TemporaryDirectory()
        let store = try store(dir)
        #expect(store.listenBrainz.state.value.status.hasPrefix("No token saved"))
        store.setListenBrainzUser("  rob ")
        store.listenBrainz.setSecret(" lb-secret-token\n")
        #expect(store.save())
        #expect(try Settings.loadSaved(paths: dir.paths).listenBrainzUser == "rob")
        let keys = KeyStore(paths: dir.paths)
        let file = keys.listenBrainzTokenURL.path
        #expect(keys.listenBrainzToken().token == "lb-secret-token")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        #expect(store.listenBrainz.state.value.status.contains(file))
        #expect(!"\(store.state.value) \(store.listenBrainz.state.value)".contains("lb-secret-token"))

        // An empty name clears it; a name with a slash is refused and nothing is written.
        store.setListenBrainzUser("a/b")
        #expect(!store.save())
        #expect(store.state.value.errorMessage == "A ListenBrainz user name cannot contain a slash or a line break.")
        #expect(try Settings.loadSaved(paths: dir.paths).listenBrainzUser == "rob")
        store.setListenBrainzUser("")
        #expect(store.save())
        #expect(store.state.value.errorMessage == nil)
        #expect(try Settings.loadSaved(paths: dir.paths).listenBrainzUser == nil)
    }

    @Test func testSaysWhoseTokenItIsAndWhenItIsRefused() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server, user: "rob")
        let dir = try TemporaryDirectory()
        let store = try store(dir, server: server)

        store.testListenBrainz()
        #expect(store.listenBrainz.state.value.check.isFailure, "no token: said before any request")
        #expect(server.requests(path: "/1/validate-token").isEmpty)

        store.setListenBrainzUser("rob")
        store.listenBrainz.setSecret("typed-token")
        store.testListenBrainz()
        #expect(await settled(store.listenBrainz) == .valid(identity: "rob", message: "Connected as rob."))
        #expect(server.requests(path: "/1/validate-token").last?.headers["authorization"] == "Token typed-token")

        // Another user name: the last answer was about the old one.
        store.setListenBrainzUser("someone")
        #expect(store.listenBrainz.state.value.check == .idle)
        store.testListenBrainz()
        #expect(await settled(store.listenBrainz) == .invalid("This token belongs to rob, not someone."))

        server.route("/1/validate-token", responses: [.json(ListenBrainzFixtures.badToken, status: 401)])
        store.testListenBrainz()
        #expect(await settled(store.listenBrainz) == .invalid(ListenBrainzError.invalidToken.errorDescription!))
        #expect(!FileManager.default.fileExists(atPath: dir.paths.settingsURL.path), "a test saves nothing")
    }
}

@Suite("Preferences: Discogs token")
@MainActor
struct PreferencesDiscogsTests {
    private func store(_ dir: TemporaryDirectory, discogs: URL? = nil) throws -> AccountsPreferencesStore {
        var variables: [String: String] = [:]
        if let discogs { variables["CRATE_DISCOGS_URL"] = discogs.absoluteString }
        let environment = AppEnvironment(paths: dir.paths, variables: variables, database: try AppDatabase.inMemory(),
                                         secrets: MemorySecrets(), transport: CurlHTTPClient())
        return PreferencesStore(environment: environment).accounts
    }

    @Test func theTokenGoesToA0600FileNeverIntoState() throws {
        let dir = try TemporaryDirectory()
        let store = try store(dir)
        #expect(store.discogs.state.value.status.hasPrefix("No token saved"))
        store.discogs.setSecret(" discogs-secret-token\n")
        #expect(store.save())
        let keys = KeyStore(paths: dir.paths)
        let file = keys.discogsTokenURL.path
        #expect(keys.discogsToken().token == "discogs-secret-token")
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        #expect(store.discogs.state.value.status.contains(file))
        #expect(!"\(store.state.value) \(store.discogs.state.value)".contains("discogs-secret-token"))
        // Saving again without typing keeps the token.
        #expect(store.save())
        #expect(keys.discogsToken().token == "discogs-secret-token")
    }

    @Test func testAsksDiscogsWhoseTokenItIs() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/oauth/identity", responses: [.json(DiscogsFixtures.identity(username: "crate-digger"))])
        let dir = try TemporaryDirectory()
        let store = try store(dir, discogs: server.baseURL)

        store.testDiscogs()
        #expect(store.discogs.state.value.check.isFailure, "no token: said before any request")
        #expect(server.requests(path: "/oauth/identity").isEmpty)

        store.discogs.setSecret("typed-token")
        store.testDiscogs()
        #expect(await settled(store.discogs) == .valid(identity: "crate-digger", message: "Connected as crate-digger."))
        #expect(server.requests(path: "/oauth/identity").last?.headers["authorization"] == "Discogs token=typed-token")

        server.route("/oauth/identity", responses: [.json(DiscogsFixtures.unauthorized, status: 401)])
        store.testDiscogs()
        #expect(await settled(store.discogs) == .invalid(Credential<AccountTarget>.discogsTokenRefused))
        #expect(Credential<AccountTarget>.discogsTokenRefused.hasPrefix("Discogs did not accept this token"))

        server.route("/oauth/identity", responses: [.json("{\"username\": ", status: 200)])
        store.testDiscogs()
        #expect(await settled(store.discogs) == .invalid(DiscogsError.malformedResponse.message))
        #expect(!FileManager.default.fileExists(atPath: KeyStore(paths: dir.paths).discogsTokenURL.path), "a test saves nothing")
    }

    @Test func offlineSaysDiscogsCannotBeReachedInPlainWords() async throws {
        let closed = try FixtureServer()
        let offlineURL = closed.baseURL
        closed.stop()
        let dir = try TemporaryDirectory()
        let store = try store(dir, discogs: offlineURL)
        store.discogs.setSecret("typed-token")
        store.testDiscogs()
        guard case .offline(let message) = await settled(store.discogs) else {
            Issue.record("expected offline, got \(store.discogs.state.value.check)")
            return
        }
        #expect(message.contains("Could not reach Discogs") || message.contains("Discogs took too long"))
        #expect(!message.contains("127.0.0.1") && !message.contains("curl") && !message.contains("\(offlineURL.port ?? 0)"))
    }
}
