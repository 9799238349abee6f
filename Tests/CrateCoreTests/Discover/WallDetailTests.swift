import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// A wall tile's album pane: details from MusicBrainz, "Add to Crate" without a photo scan, and
/// the pane's heart and ✕.
@Suite("Wall album detail and Add to Crate")
@MainActor
struct WallDetailTests {
    static func item(_ n: Int, release: Bool = false) throws -> WallItem {
        WallItem(signal: .wildCard, releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x77, n)), title: "Wall Album \(n)", artist: "Wall Artist",
                 releaseID: release ? try MBID(ListenBrainzFixtures.mbid(0x78, n)) : nil)
    }

    static func detailStore(_ world: WallTestWorld, service: WallService) -> AlbumDetailStore {
        let store = AlbumDetailStore(database: world.database)
        store.configureWall(details: { try await service.details(of: $0) },
                            add: { item, details in try service.addToCrate(item, details: details) })
        return store
    }

    @Test func detailsComeFromTheGroupsReleaseOrTheWallsReleaseInOneRequestEach() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let service = try WallStoreTests.service(world)

        let browsed = try #require(try await service.details(of: Self.item(1)))
        #expect(browsed.tracks.map(\.title) == ["Track 1", "Track 2", "Track 3"])
        #expect(browsed.album.musicBrainzReleaseID != nil)
        #expect(world.server.requests(path: "/ws/2/release").count == 1)
        let group = try Self.item(1).releaseGroupID.rawValue
        #expect(world.server.requests(path: "/ws/2/release").first?.queryItem("release-group") == group)

        let looked = try #require(try await service.details(of: Self.item(2, release: true)))
        #expect(looked.tracks.count == 3)
        let release = try Self.item(2, release: true).releaseID?.rawValue
        #expect(looked.album.musicBrainzReleaseID == release)
        #expect(world.server.requests.filter { $0.path.hasPrefix("/ws/2/release/") }.count == 1)
    }

    @Test func addToCrateAddsOnceWithTracksAndLeavesTheArtToTheRepairPass() throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let service = try WallStoreTests.service(world)
        let item = try Self.item(3)
        let tracks = [ReleaseTrack(disc: 1, position: 1, number: "1", title: "Opening", durationMs: 1000, recordingID: nil)]
        var album = Album(musicBrainzReleaseID: ListenBrainzFixtures.mbid(0x79, 3), title: "Wall Album 3", artist: "Wall Artist", year: "1999")
        album.musicBrainzReleaseGroupID = item.releaseGroupID.rawValue
        let details = ReleaseDetails(album: album, tracks: tracks, facts: ReleaseFacts(status: "Official"))

        let id = try service.addToCrate(item, details: details)
        #expect(try service.addToCrate(item, details: details) == id, "adding twice adds once")
        #expect(try service.addToCrate(item, details: nil) == id, "the release group is enough to know it")

        let grid = try world.database.read(AllAlbumsRequest(sortedBy: .recentlyScanned))
        #expect(grid.count == 1 && grid.first?.scanCount == 0, "in the crate, without a photo scan")
        let stored = try #require(try world.database.album(id: id))
        #expect(stored.year == "1999" && stored.tracksStatus == .ok && stored.artworkStatus == .pending)
        #expect(try world.database.tracks(forAlbum: id).map(\.title) == ["Opening"])
        #expect(try world.database.read(CrateAlbumRequest(releaseGroupID: item.releaseGroupID)) == id)
        // The repair pass picks the art up like a scan's.
        #expect(try world.database.claimNextPendingDetails()?.album.id == id)
    }

    @Test func addingWithoutDetailsKeepsTheWallsNamesAndAskForTracksOnlyWithARelease() throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let service = try WallStoreTests.service(world)
        let bare = try service.addToCrate(try Self.item(4), details: nil)
        #expect(try world.database.album(id: bare)?.tracksStatus == .unavailable)
        #expect(try world.database.album(id: bare)?.title == "Wall Album 4")
        let withRelease = try service.addToCrate(try Self.item(5, release: true), details: nil)
        #expect(try world.database.album(id: withRelease)?.tracksStatus == .pending)
    }

    @Test func theWallPaneShowsTheAlbumThenItsTracksThenAddsItToTheCrate() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let service = try WallStoreTests.service(world)
        let store = Self.detailStore(world, service: service)
        let item = try Self.item(6)

        await store.show(wallItem: item, artworkPath: "wall-art.jpg")
        let shown = store.state.value
        #expect(shown.wallItem == item && shown.album?.id == nil)
        #expect(shown.album?.title == "Wall Album 6" && shown.album?.artworkPath == "wall-art.jpg")
        #expect(shown.tracks.count == 3, "the tracks arrived from MusicBrainz")
        #expect(shown.ratedAlbum?.releaseGroupID == item.releaseGroupID)

        await store.addShownToCrate()
        let added = store.state.value
        let id = try #require(added.album?.id)
        #expect(added.wallItem == nil && !added.isAddingToCrate)
        #expect(try world.database.tracks(forAlbum: id).count == 3, "the tracks shown are saved with it")

        // A tile of an album already in the crate opens the crate's album.
        await store.show(albumID: nil)
        await store.show(wallItem: item, artworkPath: nil)
        #expect(store.state.value.album?.id == id && store.state.value.wallItem == nil)
    }

    @Test func offlineThePaneStillShowsTheAlbumAndAddsItWithoutTracks() async throws {
        let world = try WallTestWorld()
        let service = try WallStoreTests.service(world)
        world.server.stop()
        let store = Self.detailStore(world, service: service)
        await store.show(wallItem: try Self.item(7), artworkPath: nil)
        #expect(store.state.value.album?.title == "Wall Album 7")
        #expect(store.state.value.tracks.isEmpty && store.state.value.album?.tracksStatus == .unavailable)
        await store.addShownToCrate()
        #expect(store.state.value.album?.id != nil)
    }

    @Test func thePanesHeartAndCrossAreExclusiveAndADislikeLeavesTheWall() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let service = try WallStoreTests.service(world)
        let wall = WallStore(database: world.database, service: service)
        let item = try Self.item(8)
        try world.database.saveWall(dial: .mixed, items: [item, try Self.item(9)], unavailable: [])
        await wall.loadCached()
        let store = Self.detailStore(world, service: service)
        await store.show(wallItem: item, artworkPath: nil)
        let rate: @MainActor (RatedAlbum, AlbumRating?) async -> Void = { album, rating in
            switch rating {
            case .favourite: await wall.favourite(album)
            case .dislike: await wall.dislike(album)
            case nil: await wall.unrate(album)
            }
        }

        await store.rateShown(.favourite, using: rate)
        #expect(store.state.value.rating == .favourite)
        #expect(try world.database.read(AlbumRatingsRequest())[item.releaseGroupID] == .favourite)
        await store.rateShown(.dislike, using: rate)
        #expect(store.state.value.rating == .dislike)
        #expect(try world.database.read(AlbumRatingsRequest())[item.releaseGroupID] == .dislike, "one rating per album")
        #expect(!wall.state.value.tiles.contains { $0.item.releaseGroupID == item.releaseGroupID }, "gone from the wall at once")
        await store.rateShown(nil, using: rate)
        #expect(store.state.value.rating == nil)
        #expect(try world.database.read(AlbumRatingsRequest())[item.releaseGroupID] == nil)
        // Each change was queued for ListenBrainz (a token is set).
        let outbox = try world.database.read(FeedbackStatusRequest())
        #expect(outbox.pending + outbox.sent + outbox.failed + outbox.superseded == 3)
    }

    /// Bug: offline, the crate alone still answered (Listening History's fallback), so a refresh
    /// replaced a full stored wall with the crate's one or two albums.
    @Test func offlineACrateOnlyWallDoesNotReplaceTheStoredOne() async throws {
        let world = try WallTestWorld()
        let service = try WallStoreTests.service(world)
        try service.addToCrate(try Self.item(10), details: nil)
        let old = try (20..<40).map { try Self.item($0) }
        try world.database.saveWall(dial: .mixed, items: old, unavailable: [])
        world.server.stop()

        let built = try await service.refresh(dial: .mixed, count: 30)
        #expect(built.items.isEmpty, "reported as kept")
        #expect(built.unavailable.count >= 4)
        #expect(try world.database.read(StoredWallRequest())?.tiles.map(\.item.releaseGroupID) == old.map(\.releaseGroupID))
    }
}
