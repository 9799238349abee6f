import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Listen switches in Preferences")
@MainActor
struct ListenPreferencesTests {
    @Test func aSwitchIsSavedAtOnceAndCountsForTheNextTrack() throws {
        let dir = try TemporaryDirectory()
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: try AppDatabase.inMemory(), secrets: MemorySecrets())
        var applied: Settings?
        let store = PreferencesStore(environment: environment, clients: PreferencesClients(provider: .answering("m"), listenBrainz: .answering("rob"),
                                                                                           discogs: .answering("rob")),
                                     onSaved: { applied = $0 })
        let accounts = store.accounts
        #expect(!accounts.state.value.listenBrainzListens && !accounts.state.value.lastFMListens)
        accounts.setListens(.listenBrainz, on: true)
        #expect(accounts.state.value.listenBrainzListens)
        #expect(try Settings.loadSaved(paths: dir.paths).listens.listenBrainz)
        #expect(applied?.listens.listenBrainz == true && applied?.listens.lastFM == false)
        #expect(ListenSubmitters.live(environment: environment, settings: try #require(applied)).map(\.service) == [.listenBrainz])
    }
}
