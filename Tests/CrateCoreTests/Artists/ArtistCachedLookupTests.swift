import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The artist link of an album pane: the cached artist whose catalogue lists the album opens at
/// once, with no request (offline too); namesakes are never guessed between.
@MainActor
@Suite("Artist link from an album")
struct ArtistCachedLookupTests {
    @Test func anAlbumOfACachedCatalogueOpensItsArtistWithoutARequest() async throws {
        let h = try ArtistCatalogueTests.Harness()
        defer { h.server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        h.serve(groups)
        _ = try await h.service.catalogue(ArtistCatalogueTests.id, name: ArtistCatalogueTests.artistName)
        let sent = h.server.requests.count

        // Offline: no MusicBrainz client at all.
        let offline = ArtistStore(database: h.database, service: ArtistCatalogueService(client: nil, database: h.database))
        await offline.open(name: ArtistCatalogueTests.artistName, releaseGroup: try MBID(groups[17].id))

        let state = offline.state.value
        #expect(state.phase == .loaded && !state.isFetching)
        #expect(state.artistID == ArtistCatalogueTests.id)
        #expect(state.catalogue?.releaseGroups.count == 250)
        #expect(h.server.requests.count == sent)
        // The name alone finds the one cached artist with it too.
        #expect(try h.service.cachedArtist(name: ArtistCatalogueTests.artistName, releaseGroup: nil)?.id == ArtistCatalogueTests.id)
    }

    @Test func namesakesInTheCacheAreNotGuessedBetween() async throws {
        let database = try AppDatabase.inMemory()
        let entry = ReleaseGroupEntry(id: try MBID("11111111-2222-4333-8444-555555555555"), title: "Bleach", primaryType: "Album", secondaryTypes: [], firstReleaseDate: "1989-06-15")
        let us = try MBID(MusicBrainzArtistFixtures.nirvanaUS), uk = try MBID(MusicBrainzArtistFixtures.nirvanaUK)
        for (artist, entries) in [(us, [entry]), (uk, [ReleaseGroupEntry]())] {
            try database.beginCatalogueFetch(artistID: artist, name: "Nirvana", disambiguation: nil, at: Date())
            try database.saveCataloguePage(artistID: artist, entries: entries, artistName: "Nirvana", total: entries.count, nextOffset: entries.count, at: Date())
        }
        let service = ArtistCatalogueService(client: nil, database: database)
        // The album tells them apart.
        #expect(try service.cachedArtist(name: "Nirvana", releaseGroup: entry.id)?.id == us)
        #expect(try service.cachedArtist(name: "nirvana", releaseGroup: entry.id)?.id == us)
        // Without one (or with an album neither lists), the name alone is ambiguous: a search decides.
        #expect(try service.cachedArtist(name: "Nirvana", releaseGroup: nil) == nil)
        #expect(try service.cachedArtist(name: "Nirvana", releaseGroup: try MBID("99999999-2222-4333-8444-555555555555")) == nil)
        let store = ArtistStore(database: database, service: service)
        await store.open(name: "Nirvana", releaseGroup: nil)
        guard case .failed(let text) = store.state.value.phase else {
            Issue.record("expected the search to be needed, got \(store.state.value.phase)")
            return
        }
        #expect(!text.isEmpty)
    }
}
