import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Each page store's intents, with clients that answer at once (no server).
@Suite("Preferences page stores")
@MainActor
struct PreferencesPageStoreTests {
    private func preferences(_ dir: TemporaryDirectory, variables: [String: String] = [:], clients: PreferencesClients,
                             onCredentialsChanged: (() -> Void)? = nil) throws -> PreferencesStore {
        let environment = AppEnvironment(paths: dir.paths, variables: variables, database: try AppDatabase.inMemory(), secrets: MemorySecrets())
        return PreferencesStore(environment: environment, clients: clients, onCredentialsChanged: onCredentialsChanged)
    }

    private func clients(provider: CredentialClient<ProviderTarget> = .answering("m"),
                         account: CredentialClient<AccountTarget> = .answering("rob")) -> PreferencesClients {
        PreferencesClients(provider: provider, listenBrainz: account, discogs: account)
    }

    @Test func testConnectionAsksWithTheTypedKeyModelAndTheEndpointInEffect() async throws {
        let dir = try TemporaryDirectory()
        let recorder = RecordingValidation<ProviderTarget>(answering: "claude-answered")
        let store = try preferences(dir, variables: ["CRATE_ANTHROPIC_URL": "http://127.0.0.1:7001"],
                                    clients: clients(provider: recorder.client)).provider
        store.testConnection()
        #expect(store.key.state.value.check == .invalid("Choose a provider first."))

        store.selectProvider(.anthropic)
        store.setEndpoint("ftp://nowhere")
        store.testConnection()
        #expect(store.key.state.value.check == .invalid("The endpoint must be an http:// or https:// address."))

        store.setEndpoint("https://proxy.example.org")
        store.key.setSecret(" sk-typed ")
        store.testConnection()
        #expect(await settled(store.key) == .valid(identity: "claude-answered", message: "Connected: Anthropic answered (model claude-answered)."))
        let call = try #require(recorder.calls.last)
        #expect(call.secret == "sk-typed")
        #expect(call.context == ProviderTarget(kind: .anthropic, model: ProviderFactory.defaultModel(for: .anthropic),
                                               endpoint: URL(string: "http://127.0.0.1:7001")!))
        #expect(!FileManager.default.fileExists(atPath: dir.paths.settingsURL.path), "a test saves nothing")
    }

    @Test func ollamaIsTestedWithoutAKey() async throws {
        let dir = try TemporaryDirectory()
        let recorder = RecordingValidation<ProviderTarget>(answering: "llava")
        let store = try preferences(dir, clients: clients(provider: recorder.client)).provider
        store.selectProvider(.ollama)
        #expect(store.key.state.value.status == "No key needed.")
        store.testConnection()
        #expect(await settled(store.key) == .valid(identity: "llava", message: "Connected: Ollama answered (model llava)."))
        #expect(recorder.calls.map(\.secret) == [""])
    }

    @Test func switchingProviderForgetsTheCheckAndTheTypedKey() async throws {
        let dir = try TemporaryDirectory()
        let store = try preferences(dir, clients: clients()).provider
        store.selectProvider(.anthropic)
        store.key.setSecret("sk-ant")
        store.testConnection()
        _ = await settled(store.key)
        store.selectProvider(.openai)
        #expect(store.key.state.value.check == .idle)
        #expect(!store.key.hasTyped)
        #expect(store.key.state.value.status == "No key saved. Paste one above.")
    }

    @Test func savingAKeyOrAnotherProviderRetriesFailedPhotosButOtherSavesDoNot() throws {
        let dir = try TemporaryDirectory()
        var retries = 0
        let store = try preferences(dir, clients: clients(), onCredentialsChanged: { retries += 1 })
        store.provider.selectProvider(.anthropic)
        store.provider.key.setSecret("sk-ant")
        #expect(store.provider.save())
        #expect(retries == 1)
        store.provider.setAdvancedSearch(true)
        #expect(store.provider.save())
        #expect(retries == 1)
        store.accounts.setContact("me@example.org")
        #expect(store.accounts.save())
        #expect(retries == 1)
        #expect(try Settings.loadSaved(paths: dir.paths).advancedSearch)
        #expect(try Settings.loadSaved(paths: dir.paths).provider == .anthropic)
    }

    @Test func accountTokensAreTestedAgainstTheSettingsInEffectAndTheUserTyped() async throws {
        let dir = try TemporaryDirectory()
        let recorder = RecordingValidation<AccountTarget>(answering: "rob")
        let store = try preferences(dir, variables: ["CRATE_DISCOGS_URL": "http://127.0.0.1:7002"],
                                    clients: clients(account: recorder.client)).accounts
        store.setListenBrainzUser(" rob ")
        store.discogs.setSecret("discogs-typed")
        store.testDiscogs()
        #expect(await settled(store.discogs) == .valid(identity: "rob", message: "Connected as rob."))
        let call = try #require(recorder.calls.last)
        #expect(call.secret == "discogs-typed")
        #expect(call.context.user == "rob")
        #expect(call.context.settings.endpoints.discogs.absoluteString == "http://127.0.0.1:7002")
        // The Discogs answer is its own: the ListenBrainz row is still untested.
        #expect(store.listenBrainz.state.value.check == .idle)
    }

    @Test func sessionFieldsOfTheAccountsPageAreNeverSaved() throws {
        let dir = try TemporaryDirectory()
        let store = try preferences(dir, variables: ["CRATE_LISTENBRAINZ_USER": "session-user"], clients: clients()).accounts
        #expect(store.state.value.listenBrainzUser == "session-user")
        store.setContact("me@example.org")
        #expect(store.save())
        let saved = try Settings.loadSaved(paths: dir.paths)
        #expect(saved.listenBrainzUser == nil && saved.musicBrainzContact == "me@example.org")
    }
}
