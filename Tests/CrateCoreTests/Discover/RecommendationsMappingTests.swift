import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Recommendations: recording → album mappings")
struct RecommendationsMappingTests {
    /// The first wall of a library maps the recommended recordings (batched); a later wall whose
    /// recordings are all known sends no metadata lookup, so it waits for one round trip.
    @Test func knownMappingsNeedNoSecondRoundTrip() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"))

        let first = try await source.albums(WallSourceRequest(count: 20))
        let lookups = world.server.requests(path: "/1/metadata/recording/").count
        #expect(!first.isEmpty)
        #expect(lookups >= 1)

        let second = try await source.albums(WallSourceRequest(count: 20))
        #expect(second.map(\.releaseGroupID) == first.map(\.releaseGroupID))
        #expect(world.server.requests(path: "/1/metadata/recording/").count == lookups, "every recording was known")
    }

    /// New recordings among known ones (a new recommendation model): when the known albums fill
    /// the share, the wall is answered without waiting for the lookup of the new ones.
    @Test func knownAlbumsThatFillTheShareDoNotWaitForNewRecordings() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"))
        _ = try await source.albums(WallSourceRequest(count: 30))  // 60 recordings → 20 albums, mapped and kept
        let known = try world.database.read(CachedRecordingAlbumsRequest(try (0..<60).map { try MBID(ListenBrainzFixtures.mbid(0xd0, $0)) }))
        try #require(!known.isEmpty)

        // The model now recommends those 60 and 30 new recordings.
        world.server.route("/1/cf/recommendation/user/*", responses: [.json(ListenBrainzFixtures.recommendations(count: 90, user: "rob"))])
        let answer = try await source.albums(WallSourceRequest(count: 10))
        let albumsOfKnown = Set(known.values.map(\.releaseGroupID))
        #expect(answer.count >= 10)
        #expect(answer.allSatisfy { albumsOfKnown.contains($0.releaseGroupID) }, "answered from the known mappings alone")
    }

    /// When the known albums are too few for the share, the wall waits for the lookup.
    @Test func tooFewKnownAlbumsWaitForTheLookup() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"))
        let small = try await source.albums(WallSourceRequest(count: 5))
        let lookups = world.server.requests(path: "/1/metadata/recording/").count

        let bigger = try await source.albums(WallSourceRequest(count: 40))
        #expect(bigger.count > small.count)
        #expect(world.server.requests(path: "/1/metadata/recording/").count > lookups)
    }
}
