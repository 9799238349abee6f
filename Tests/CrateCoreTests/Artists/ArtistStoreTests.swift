import CrateCore
import CrateTestSupport
import Foundation
import Testing

@MainActor
@Suite("ArtistStore")
struct ArtistStoreTests {
    @Test func aNameWithNamesakesWaitsForThePickThenShowsThatArtistOnly() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        h.server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.nirvanaSearch)])
        let ukGroups = MusicBrainzArtistFixtures.catalogue(count: 130, seed: 3)
        MusicBrainzArtistFixtures.serveCatalogue(on: h.server, artistID: MusicBrainzArtistFixtures.nirvanaUK, artistName: "Nirvana", groups: ukGroups)
        let store = ArtistStore(database: h.database, service: h.service)

        await store.open(name: "Nirvana")

        #expect(store.state.value.phase == .choosing)
        #expect(store.state.value.candidates.count == 4)
        #expect(store.state.value.catalogue == nil)
        #expect(h.server.requests(path: "/ws/2/release-group").isEmpty)

        await store.choose(store.state.value.candidates[1])

        let state = store.state.value
        #expect(state.phase == .loaded && !state.isFetching && state.notice == nil)
        #expect(state.artistID?.rawValue == MusicBrainzArtistFixtures.nirvanaUK)
        #expect(state.title == "Nirvana")
        let catalogue = try #require(state.catalogue)
        ArtistCatalogueTests.expectComplete(catalogue, matches: ukGroups)
    }

    @Test func aSecondVisitIsTheCacheWithoutARequest() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups)
        let first = ArtistStore(database: h.database, service: h.service)
        await first.open(artistID: ArtistCatalogueTests.id, name: "Sunn O)))")
        #expect(first.state.value.catalogue?.releaseGroups.count == 250)
        let sent = h.server.requests.count

        let second = ArtistStore(database: h.database, service: ArtistCatalogueService(client: nil, database: h.database))
        await second.open(artistID: ArtistCatalogueTests.id)

        #expect(second.state.value.catalogue == first.state.value.catalogue)
        #expect(second.state.value.phase == .loaded && !second.state.value.isFetching)
        #expect(h.server.requests.count == sent)
    }

    @Test func aFailedFetchKeepsTheSavedPagesWithANotice() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups) { offset, _ in offset == 200 ? MusicBrainzArtistFixtures.rateLimited(retryAfter: 1) : nil }
        let store = ArtistStore(database: h.database, service: h.service)
        store.start()
        defer { store.stop() }

        await store.open(artistID: ArtistCatalogueTests.id)

        // The pages saved before the failure are shown (the store follows the cache).
        #expect(await waitUntil(store.state) { store.state.value.catalogue?.releaseGroups.count == 200 } != nil)
        #expect(store.state.value.phase == .loaded)
        #expect(store.state.value.notice == UserMessage.text(for: MusicBrainzError.busy))
    }

    @Test func anUnknownNameFailsWithASentence() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        h.server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.emptySearch)])
        let store = ArtistStore(database: h.database, service: h.service)

        await store.open(name: "Nobody At All")

        #expect(store.state.value.phase == .failed(UserMessage.text(for: ArtistCatalogueError.noArtistNamed("Nobody At All"))))
    }

    /// Clicking an album's artist searched MusicBrainz by name although the album's release group
    /// names its artist: the credits give the artist at once, without a search (no namesakes).
    @Test func anAlbumsArtistOpensByItsReleaseGroupCreditsNotByName() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        let group = "0b0b0b0b-0000-4000-8000-000000000001"
        h.server.route("/ws/2/release-group/\(group)", responses: [.json(#"""
            {"id":"\#(group)","title":"Bleach","artist-credit":[{"name":"Nirvana","joinphrase":"",
             "artist":{"id":"\#(MusicBrainzArtistFixtures.nirvanaUS)","name":"Nirvana","sort-name":"Nirvana"}}]}
            """#)])
        h.server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.nirvanaSearch)])
        let groups = MusicBrainzArtistFixtures.catalogue(count: 12, seed: 5)
        MusicBrainzArtistFixtures.serveCatalogue(on: h.server, artistID: MusicBrainzArtistFixtures.nirvanaUS, artistName: "Nirvana", groups: groups)
        let store = ArtistStore(database: h.database, service: h.service)

        await store.open(name: "Nirvana", releaseGroup: try MBID(group))

        #expect(store.state.value.phase == .loaded)
        #expect(store.state.value.artistID?.rawValue == MusicBrainzArtistFixtures.nirvanaUS)
        #expect(h.server.requests(path: "/ws/2/artist").isEmpty, "no search by name")
    }

    /// A failed artist lookup said "MusicBrainz has no such release": it is said as an artist.
    @Test func aMissingReleaseGroupIsSaidAsAnArtistProblem() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        let group = "0b0b0b0b-0000-4000-8000-000000000002"
        h.server.route("/ws/2/release-group/\(group)", responses: [.json(MusicBrainzFixtures.notFound, status: 404)])
        let store = ArtistStore(database: h.database, service: h.service)

        await store.open(name: "Somebody", releaseGroup: try MBID(group))

        guard case .failed(let message) = store.state.value.phase else { Issue.record("not failed: \(store.state.value.phase)"); return }
        #expect(message == "MusicBrainz knows no artist called \u{201C}Somebody\u{201D}.")
        #expect(!message.contains("release"))
    }
}
