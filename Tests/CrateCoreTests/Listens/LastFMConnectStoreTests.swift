import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Preferences' "Connect Last.fm" against the loopback Last.fm: token, approval page, session.
@Suite("Preferences: Connect Last.fm")
@MainActor
struct LastFMConnectStoreTests {
    func environment(_ temp: TemporaryDirectory, server: FixtureServer, application: Bool = true) -> AppEnvironment {
        var variables = ["HOME": temp.url.path, "CRATE_LASTFM_URL": server.url("/2.0/").absoluteString]
        if application {
            variables["CRATE_LASTFM_API_KEY"] = "key1"
            variables["CRATE_LASTFM_API_SECRET"] = "shh"
        }
        return AppEnvironment(paths: temp.paths, variables: variables, database: try! AppDatabase.open(paths: temp.paths))
    }

    @Test func connectingOpensTheApprovalPageThenKeepsTheSessionAndTurnsScrobblingOn() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/2.0/") { request in
            ListenFixtures.form(request.body)["method"] == "auth.getToken" ? .json(ListenFixtures.lastFMToken) : .json(ListenFixtures.lastFMSession)
        }
        let temp = try TemporaryDirectory()
        let environment = environment(temp, server: server)
        let preferences = PreferencesStore(environment: environment)
        let store = preferences.lastFM
        var opened: [URL] = []
        store.onOpen = { opened.append($0) }
        #expect(store.state.value.text == "Not connected")

        await store.connect()
        #expect(opened.first?.absoluteString.contains("token=cf45fe5a3e3cebe168480a086d7fe481") == true)
        guard case .awaitingApproval = store.state.value.step else { Issue.record("not waiting for approval"); return }
        await store.finish()
        #expect(store.state.value.text == "Connected as rob")
        #expect(environment.keys.lastFMSession().value == "d580d57f32848f5dcf574d1ce18d78b2")
        #expect(try Settings.loadSaved(paths: temp.paths).listens.lastFM)
        // The session's user is kept too: Crate looks up what Last.fm holds under that name.
        #expect(try Settings.loadSaved(paths: temp.paths).listens.lastFMUser == "rob")
        #expect(preferences.accounts.state.value.lastFMListens, "the switch shows it")
    }

    @Test func withoutAnApplicationOrWhenRefusedItSaysWhy() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/2.0/") { _ in .json(#"{"error":14,"message":"This token has not been authorized"}"#, status: 403) }
        let temp = try TemporaryDirectory()
        let bare = PreferencesStore(environment: environment(temp, server: server, application: false)).lastFM
        #expect(bare.state.value.text.contains("API key"))
        await bare.connect()
        #expect(bare.state.value.step == .idle && bare.state.value.errorMessage != nil)

        let store = PreferencesStore(environment: environment(try TemporaryDirectory(), server: server)).lastFM
        await store.connect()
        #expect(store.state.value.step == .idle && store.state.value.errorMessage != nil)
        #expect(store.state.value.isConnected == false)
    }
}
