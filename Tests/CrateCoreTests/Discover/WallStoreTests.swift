import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("WallStore")
@MainActor
struct WallStoreTests {
    static func service(_ world: WallTestWorld, token: Bool = true) throws -> WallService {
        let builder = try world.builder(timeout: 5)
        let lb = world.listenBrainz(token: token ? "secret-token" : nil)
        return WallService(database: world.database, builder: builder, artwork: nil,
                           feedback: FeedbackSender(database: world.database, listenBrainz: lb, musicBrainz: world.musicBrainz()),
                           sendsFeedback: token, listenBrainzUser: "rob")
    }

    @Test func theStoredWallShowsAtOnceThenARefreshReplacesIt() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let old = try (0..<4).map { WallItem(signal: .wildCard, releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x99, $0)), title: "Old \($0)", artist: "A") }
        try world.database.saveWall(dial: .mystery, items: old, unavailable: [])
        let store = WallStore(database: world.database, service: try Self.service(world))

        await store.loadCached()
        #expect(store.state.value.tiles.map(\.item) == old)
        #expect(store.state.value.dial == .mystery && store.state.value.phase == .loaded)
        #expect(store.state.value.dialEntries.count == 5)

        await store.setDial(.myCrate)
        #expect(store.state.value.dial == .myCrate)
        #expect(store.state.value.tiles.count == 60)
        #expect(try world.database.read(StoredWallRequest())?.dial == .myCrate)
        #expect(try world.database.read(WallDialRequest()) == .myCrate)

        await store.more()
        #expect(store.state.value.tiles.count == 120)
        #expect(Set(store.state.value.tiles.map(\.item.releaseGroupID)).count == 120)
    }

    @Test func aRefreshWithNothingReachableKeepsTheWall() async throws {
        let world = try WallTestWorld()
        let old = try (0..<4).map { WallItem(signal: .wildCard, releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x99, $0)), title: "Old \($0)", artist: "A") }
        try world.database.saveWall(dial: .mixed, items: old, unavailable: [])
        let store = WallStore(database: world.database, service: try Self.service(world))
        world.server.stop()

        await store.loadCached()
        await store.refresh()

        #expect(store.state.value.tiles.map(\.item) == old)
        #expect(store.state.value.message?.contains("last wall") == true)
        #expect(store.state.value.unavailable.count == 5)
    }

    @Test func aDislikeLeavesTheWallAtOnceAndIsQueuedForListenBrainz() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let store = WallStore(database: world.database, service: try Self.service(world))
        await store.refresh()
        let tile = try #require(store.state.value.tiles.first)

        await store.dislike(WallStore.album(of: tile))
        #expect(!store.state.value.tiles.contains { $0.item.releaseGroupID == tile.item.releaseGroupID })
        #expect(store.state.value.ratings[tile.item.releaseGroupID] == .dislike)

        await store.favourite(WallStore.album(of: tile))
        await store.loadCached()
        #expect(store.state.value.ratings[tile.item.releaseGroupID] == .favourite)
        #expect(store.state.value.tiles.contains { $0.item.releaseGroupID == tile.item.releaseGroupID })
        let status = try world.database.read(FeedbackStatusRequest())
        #expect(status.pending + status.sent + status.superseded == 2)
    }
}
