@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The pane's Discogs line: hidden without a token or a release, the cached status, "Adding…"
/// until sent, and a queued addition that says it waits for the network.
@Suite("Discogs account store")
@MainActor
struct DiscogsAccountStoreTests {
    static let rumours = DiscogsAccountHarness.rumours

    @Test func withoutATokenOrAReleaseNothingShows() async throws {
        let h = try DiscogsAccountHarness()
        let linked = try h.linkedAlbum()
        let unlinked = try h.database.saveScan(of: Album(title: "Tusk", artist: "Fleetwood Mac"), method: .manual).album.id
        let noToken = DiscogsAccountStore(database: h.database, account: nil, tokenKey: nil)
        await noToken.show(albumID: linked)
        #expect(noToken.state.value.releaseID == Self.rumours && !noToken.state.value.isAvailable && noToken.state.value.statusLine == nil)
        let store = DiscogsAccountStore(database: h.database, account: h.account(), tokenKey: DiscogsAccount.tokenKey(DiscogsAccountHarness.token))
        await store.show(albumID: unlinked)
        #expect(!store.state.value.isAvailable && !store.state.value.canAddToCollection)
        #expect(h.server.requests.isEmpty)
    }

    @Test func theStatusShowsAndIsNotAskedAgainWithinTheWindow() async throws {
        let h = try DiscogsAccountHarness()
        h.world.collection.withLock { $0[Self.rumours] = 2 }
        h.world.wants.withLock { $0 = [Self.rumours] }
        let album = try h.linkedAlbum()
        let store = DiscogsAccountStore(database: h.database, account: h.account(), tokenKey: DiscogsAccount.tokenKey(DiscogsAccountHarness.token))
        store.start()
        defer { store.stop() }
        await store.show(albumID: album)
        #expect(await waitUntil(store.state) { store.state.value.statusLine == "In your Discogs collection (2 copies) · In your wantlist" } != nil)
        #expect(store.state.value.canAddToCollection && !store.state.value.canAddToWantlist)
        #expect(store.state.value.collectionButtonTitle == "Add Another Copy to Discogs")
        let asked = h.server.requests.count
        let other = DiscogsAccountStore(database: h.database, account: h.account(), tokenKey: DiscogsAccount.tokenKey(DiscogsAccountHarness.token))
        await other.show(albumID: album)
        #expect(other.state.value.status?.copies == 2 && h.server.requests.count == asked)
    }

    @Test func anAdditionQueuedOfflineSaysSoAndGoesWhenOnline() async throws {
        let h = try DiscogsAccountHarness()
        let album = try h.linkedAlbum()
        let key = DiscogsAccount.tokenKey(DiscogsAccountHarness.token)
        let store = DiscogsAccountStore(database: h.database, account: nil, tokenKey: key, sleep: { _ in })
        store.start()
        defer { store.stop() }
        await store.show(albumID: album)
        await store.addToCollection()
        await store.addToCollection()  // a second tap queues nothing more
        #expect(store.state.value.pending.count == 1 && !store.state.value.canAddToCollection)
        #expect(store.state.value.pendingLine == "Adding to your Discogs collection… Queued: sent when Crate is online.")
        #expect(h.world.writeCount == 0)
        store.configure(account: h.account(), tokenKey: key)
        #expect(await waitUntil(store.state) { store.state.value.pending.isEmpty && store.state.value.status?.copies == 1 } != nil)
        #expect(store.state.value.statusLine == "In your Discogs collection (1 copy)")
        #expect(h.world.writes.withLock { $0 } == ["POST \(Self.rumours)"])
    }
}
