@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Recommendations also bring albums by artists similar to the artists of the user's favourites.
@Suite("Similar artists of favourites")
struct SimilarArtistsTests {
    static func mbid(_ namespace: Int, _ n: Int) -> MBID { try! MBID(ListenBrainzFixtures.mbid(namespace, n)) }

    static func feed(_ world: WallTestWorld, musicBrainz: MusicBrainzClient) -> FavouriteArtistAlbums {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .listenBrainz, limiter: RateLimiter(clock: world.clock), clock: world.clock, jitter: { 0 })
        return FavouriteArtistAlbums(database: world.database, similar: SimilarArtistsClient(http: http, baseURL: world.server.baseURL),
                                     musicBrainz: musicBrainz, coverArt: world.server.url("/caa"))
    }

    static func namespace(_ item: WallItem) -> Int { WallTestWorld.namespace(of: item) }

    /// Two favourites: one rated from a source that knew its artist, one that did not.
    static func rateFavourites(_ database: AppDatabase) throws {
        try database.rate(RatedAlbum(releaseGroupID: mbid(0x10, 1), title: "Known", artist: "A", artistIDs: [mbid(0xa0, 1)]), .favourite, feedback: false)
        try database.rate(RatedAlbum(releaseGroupID: mbid(0x10, 2), title: "Unknown", artist: "B"), .favourite, feedback: false)
        try database.rate(RatedAlbum(releaseGroupID: mbid(0x10, 3), title: "Disliked", artist: "C", artistIDs: [mbid(0xa0, 3)]), .dislike, feedback: false)
    }

    @Test func ratingAFavouriteStoresItsArtists() throws {
        let database = try AppDatabase.inMemory()
        try Self.rateFavourites(database)
        let favourites = try database.read(FavouriteArtistsRequest(limit: 10))
        #expect(Set(favourites.map(\.releaseGroup)) == [Self.mbid(0x10, 1), Self.mbid(0x10, 2)])
        #expect(favourites.first { $0.releaseGroup == Self.mbid(0x10, 1) }?.artists == [Self.mbid(0xa0, 1)])
        #expect(favourites.first { $0.releaseGroup == Self.mbid(0x10, 2) }?.artists == nil, "not looked up yet")
        // Rating again without artists keeps the ones known.
        try database.rate(RatedAlbum(releaseGroupID: Self.mbid(0x10, 1), title: "Known", artist: "A"), nil, feedback: false)
        try database.rate(RatedAlbum(releaseGroupID: Self.mbid(0x10, 1), title: "Known", artist: "A", artistIDs: [Self.mbid(0xa0, 1)]), .favourite, feedback: false)
        try database.setFavouriteArtists([Self.mbid(0x10, 2): []])
        #expect(try database.read(FavouriteArtistsRequest(limit: 10)).first { $0.releaseGroup == Self.mbid(0x10, 2) }?.artists == [], "looked up, none")
    }

    @Test func similarArtistsAlbumsComeFromTwoBatchedMusicBrainzRequestsPacedOnePerSecond() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        try Self.rateFavourites(world.database)
        let musicBrainz = world.musicBrainz()
        let albums = try await Self.feed(world, musicBrainz: musicBrainz).albums(count: 10)

        #expect(albums.count == 10)
        #expect(albums.allSatisfy { Self.namespace($0) == SimilarArtistsFixtures.albumNamespace && $0.signal == .recommendations })
        #expect(!albums.contains { SimilarArtistsFixtures.number($0.releaseGroupID.rawValue) % 10 == 2 }, "no live albums")
        // One album of each similar artist in turn: the first six are six different artists.
        #expect(Set(albums.prefix(6).map(\.artist)).count == 6)
        let searches = world.server.requests(path: "/ws/2/release-group").compactMap { $0.queryItem("query") }
        #expect(searches.count == 2)
        #expect(searches[0].hasPrefix("rgid:") && SimilarArtistsFixtures.ids("rgid", in: searches[0]) == [Self.mbid(0x10, 2).rawValue])
        #expect(SimilarArtistsFixtures.ids("arid", in: searches[1]).count == 6, "every similar artist in one request")
        let labs = world.server.requests(path: "/similar-artists/json")
        #expect(labs.count == 1)
        #expect(Set(labs[0].queryItem("artist_mbids")?.split(separator: ",").map(String.init) ?? []) == [Self.mbid(0xa0, 1).rawValue, Self.mbid(0xa0, 2).rawValue])
        // MusicBrainz pacing held (virtual clock): the second search waited for its slot.
        #expect(world.clock.sleeps.contains { $0 >= 1.0 }, "\(world.clock.sleeps)")
        // The unknown artist was stored: the next time needs no lookup.
        #expect(try world.database.read(FavouriteArtistsRequest(limit: 10)).allSatisfy { $0.artists?.isEmpty == false })
        _ = try await Self.feed(world, musicBrainz: musicBrainz).albums(count: 10)
        #expect(world.server.requests(path: "/ws/2/release-group").count == 3)
    }

    @Test func recommendationsBlendTheCollaborativeAlbumsWithSimilarArtists() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        try Self.rateFavourites(world.database)
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"),
                                           similarArtists: Self.feed(world, musicBrainz: world.musicBrainz()))
        let answer = try await source.answer(WallSourceRequest(count: 30))
        let rest = try #require(answer.rest, "similar artists need more round trips")
        let all = answer.items + (try await rest())
        let namespaces = Set(all.map(Self.namespace))
        #expect(namespaces == [WallNamespace.recommendations, SimilarArtistsFixtures.albumNamespace])
        #expect(Set(all.map(\.releaseGroupID)).count == all.count)
        #expect(all.count >= 30)
    }

    static let faults: [(String, FixtureResponse)] = [
        ("503", .json(ListenBrainzFixtures.serviceUnavailable, status: 503, headers: [("Retry-After", "0")])),
        ("404", .notFound),
        ("malformed", .json(#"{"not":"a list"}"#)),
        ("truncated", .json(#"[{"artist_mbid":"#)),
    ]

    @Test(arguments: 0..<4)
    func aFailingSimilarArtistsEndpointLeavesTheRestOfTheWall(_ fault: Int) async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        world.server.route("/similar-artists/json", responses: [Self.faults[fault].1])
        try Self.rateFavourites(world.database)
        let feed = Self.feed(world, musicBrainz: world.musicBrainz())
        await #expect(throws: ListenBrainzError.self) { _ = try await feed.albums(count: 10) }

        var sources = world.sources()
        sources.removeAll { $0.signal == .recommendations }
        sources.append(RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"), similarArtists: feed))
        let wall = await WallBuilder(sources: sources, table: try CrateDialTable.standard(), timeout: 5, clock: world.deadlines).build(dial: .mixed, count: 60)
        #expect(wall.items.count == 60)
        #expect(wall.unavailable.isEmpty, "\(Self.faults[fault].0): \(wall.unavailable)")
        #expect(wall.counts[.recommendations] == WallBuilderTests.expected[.mixed]?[.recommendations])
        #expect(wall.items.filter { $0.signal == .recommendations }.allSatisfy { Self.namespace($0) == WallNamespace.recommendations })
    }

    @Test func withoutAListenBrainzUserFavouritesStillGiveRecommendations() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(user: nil), database: world.database, coverArt: world.server.url("/caa"),
                                           similarArtists: Self.feed(world, musicBrainz: world.musicBrainz()))
        // No favourites yet: not configured, as before.
        await #expect(throws: WallError.self) { _ = try await source.albums(WallSourceRequest(count: 10)) }
        try Self.rateFavourites(world.database)
        let albums = try await source.albums(WallSourceRequest(count: 10))
        #expect(!albums.isEmpty && albums.allSatisfy { Self.namespace($0) == SimilarArtistsFixtures.albumNamespace })
    }
}
