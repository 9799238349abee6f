import Foundation
import Testing
@testable import CrateCore

@Suite("Library and search")
@MainActor
struct LibraryStoreTests {
    private func seeded() throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        try db.saveScan(of: Album(title: "Abbey Road", artist: "The Beatles", genres: ["rock"], label: "Apple"), method: .vision, at: Date(timeIntervalSince1970: 100))
        try db.saveScan(of: Album(title: "Kind of Blue", artist: "Miles Davis", genres: ["jazz", "modal"], label: "Columbia"), method: .vision, at: Date(timeIntervalSince1970: 300))
        try db.saveScan(of: Album(title: "Homogenic", artist: "Björk", genres: ["electronic"], label: "One Little Indian"), method: .vision, at: Date(timeIntervalSince1970: 200))
        try db.saveScan(of: Album(title: "Black One", artist: "Sunn O)))", genres: ["drone"], label: "Southern Lord"), method: .vision, at: Date(timeIntervalSince1970: 50))
        return db
    }

    @Test func sortsByRecentScanFirst() async throws {
        let store = LibraryStore(database: try seeded())
        await store.reload()
        #expect(store.state.value.albums.map(\.album.title) == ["Kind of Blue", "Homogenic", "Abbey Road", "Black One"])
    }

    /// The sort order was lost on every restart: the store keeps it in the state directory.
    @Test func theChosenSortOrderIsKeptForTheNextStart() async throws {
        let temp = try TemporaryDirectory()
        let file = SortChoiceFile(url: temp.url.appendingPathComponent("state/crate-view.json"))
        let db = try seeded()
        let first = LibraryStore(database: db, sortFile: file)
        #expect(first.state.value.sort == .recentlyScanned)
        await first.setSort(.artist)
        await first.setReversed(true)
        let next = LibraryStore(database: db, sortFile: file)
        #expect(next.state.value.sort == .artist)
        #expect(next.state.value.reversed)
        await next.reload()
        #expect(next.state.value.albums.first?.album.artist == "Sunn O)))")
        // A damaged file is the default order, not a failure.
        try Data("{not json".utf8).write(to: file.url)
        #expect(LibraryStore(database: db, sortFile: file).state.value.sort == .recentlyScanned)
    }

    @Test func artistSortIgnoresLeadingArticlesAndAccents() async throws {
        let store = LibraryStore(database: try seeded())
        await store.setSort(.artist)
        #expect(store.state.value.albums.map(\.album.artist) == ["The Beatles", "Björk", "Miles Davis", "Sunn O)))"])
    }

    @Test func searchMatchesArtistTitleLabelAndGenreByPrefix() async throws {
        let db = try seeded()
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "kind")).map(\.album.title) == ["Kind of Blue"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "beat")).map(\.album.title) == ["Abbey Road"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "southern lord")).map(\.album.title) == ["Black One"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "modal")).map(\.album.title) == ["Kind of Blue"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "bjork")).map(\.album.title) == ["Homogenic"], "accents fold")
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "sunn o)))")).map(\.album.title) == ["Black One"], "punctuation is not FTS syntax")
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: ")))")).isEmpty)
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "\"unbalanced")).isEmpty)
    }

    @Test func searchIndexFollowsUpdatesAndDeletes() throws {
        let db = try seeded()
        let mbid = "7ec069c0-4424-3169-8ed0-d5e2473e0e84"
        try db.saveScan(of: Album(musicBrainzReleaseID: mbid, title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        try db.saveScan(of: Album(musicBrainzReleaseID: mbid, title: "Rumours", artist: "Fleetwood Mac", label: "Warner Bros."), method: .vision)
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "warner")).map(\.album.title) == ["Rumours"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "rumours")).first?.scanCount == 2)
    }

    @Test func storeSearchAndSelection() async throws {
        let store = LibraryStore(database: try seeded())
        await store.search("jazz")
        #expect(store.state.value.albums.count == 1)
        let id = try #require(store.state.value.albums.first?.id)
        store.select(albumID: id)
        #expect(store.state.value.selectedAlbum?.album.title == "Kind of Blue")
        await store.search("")
        #expect(store.state.value.albums.count == 4)
    }
}

@Suite("Library rating sort")
struct LibraryRatingSortTests {
    @Test func highestRatedFirstUnreviewedLast() throws {
        let db = try AppDatabase.inMemory()
        for (title, artist) in [("Abbey Road", "The Beatles"), ("Kind of Blue", "Miles Davis"), ("Unreviewed", "Nobody"), ("Homogenic", "Björk")] {
            try db.saveScan(of: Album(title: title, artist: artist), method: .vision)
        }
        for (title, artist, rating) in [("Abbey Road", "The Beatles", 8.9), ("Kind of Blue (Legacy Edition)", "Miles Davis", 9.8), ("Homogenic", "Björk", 9.1)] {
            try db.saveReview(Review(key: ReviewKey.make(artist: artist, title: title), summary: "S.", bullets: ["a", "b", "c"], rating: rating,
                                     recommendation: "Essential Classic", tier: 1, keyTracks: ["x", "y", "z"], provider: "p", model: "m", promptVersion: "review-v1", usedSearch: false))
        }
        #expect(try db.read(AllAlbumsRequest(sortedBy: .rating)).map(\.album.title) == ["Kind of Blue", "Homogenic", "Abbey Road", "Unreviewed"])
    }
}
