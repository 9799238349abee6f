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
        #expect(first.count >= 20)
        #expect(lookups >= 1)

        let second = try await source.albums(WallSourceRequest(count: 20))
        #expect(second.map(\.releaseGroupID) == first.map(\.releaseGroupID))
        #expect(world.server.requests(path: "/1/metadata/recording/").count == lookups, "every recording was known")
    }

    /// When the known albums are too few for the share, the wall waits for the lookup.
    @Test func tooFewKnownAlbumsWaitForTheLookup() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let source = RecommendationsSource(listenBrainz: world.listenBrainz(), database: world.database, coverArt: world.server.url("/caa"))
        _ = try await source.albums(WallSourceRequest(count: 5))
        let lookups = world.server.requests(path: "/1/metadata/recording/").count

        let bigger = try await source.albums(WallSourceRequest(count: 40))
        #expect(bigger.count >= 40)
        #expect(world.server.requests(path: "/1/metadata/recording/").count > lookups)
    }
}
