import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Preferences' MusicBrainz collection page against the fixture service.
@Suite("Preferences: MusicBrainz collection")
@MainActor
struct MusicBrainzCollectionStoreTests {
    @Test func signInChooseAndSyncThenConfirmARemoval() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let service = MusicBrainzCollectionService(server: server)
        let id = MusicBrainzCollectionSyncTests.collectionID
        service.addCollection(id: id, name: "Shelf", releases: [1, 2].map { MusicBrainzCollectionService.release($0) })
        let temp = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: temp.paths)
        let environment = AppEnvironment(paths: temp.paths, variables: ["HOME": temp.url.path, "CRATE_MUSICBRAINZ_URL": MusicBrainzCollectionService.endpoint(server).absoluteString],
                                         database: database, limiter: RateLimiter(clock: TestClock()))
        let store = PreferencesStore(environment: environment).musicBrainzCollection
        #expect(store.state.value.isSignedIn == false)

        // A wrong password is said, and nothing is kept.
        await store.signIn(user: service.user, password: "wrong")
        #expect(store.state.value.isError && store.state.value.message?.contains("refused") == true)
        #expect(store.state.value.isSignedIn == false)
        #expect(environment.keys.musicBrainzPassword().value == nil)

        await store.signIn(user: service.user, password: service.password)
        #expect(store.state.value.isSignedIn && !store.state.value.isError)
        #expect(store.state.value.collections.map(\.name) == ["Shelf"])
        store.choose(index: 0)
        #expect(store.state.value.chosenID == id && store.state.value.collectionText == "Shelf")
        #expect(try Settings.loadSaved(paths: temp.paths).musicBrainzAccount.collectionID == id)
        #expect(try Settings.loadSaved(paths: temp.paths).musicBrainzAccount.user == service.user)

        await store.sync()
        #expect(store.state.value.message == "0 in sync, 2 new from MusicBrainz")
        #expect(try database.ownedReleaseIDs().count == 2)

        // Removed here: waits for the confirmation, then leaves the collection.
        let owned = try database.read(CollectionAlbumsRequest(.owned))
        try database.unown(albumID: try #require(owned.first?.id))
        await store.sync()
        #expect(store.state.value.awaitingRemoval == 1)
        #expect(service.releases(in: id).count == 2)
        await store.sync(confirmRemovals: true)
        #expect(store.state.value.awaitingRemoval == 0)
        #expect(service.releases(in: id).count == 1)
    }
}
