import Foundation
import Testing
@testable import CrateCore

/// The grid's database-backed listing: a count and pages that must give, page by page, exactly
/// what reading every album in order gives.
@Suite("Album pages")
struct AlbumPagesTests {
    private func seeded(_ count: Int) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        let artists = ["The Beatles", "Björk", "Miles Davis", "Sunn O)))", "A Tribe Called Quest"]
        for index in 0..<count {
            // Titles with numbers check the natural order ("Take 9" before "Take 10").
            let album = Album(title: "Take \(index % 13)", artist: artists[index % artists.count], year: index % 4 == 0 ? nil : String(1960 + index % 30),
                              genres: index % 2 == 0 ? ["jazz"] : ["rock"])
            try db.saveScan(of: album, method: .vision, at: Date(timeIntervalSince1970: Double((index * 7919) % 1000)))
        }
        return db
    }

    private func pages(_ db: AppDatabase, _ listing: AlbumListing, size: Int) throws -> [AlbumSummary] {
        var all: [AlbumSummary] = []
        var offset = 0
        while offset < listing.count {
            let page = try db.read(AlbumPageRequest(of: listing, offset: offset, limit: size))
            #expect(!page.isEmpty)
            all += page
            offset += page.count
        }
        return all
    }

    @Test(arguments: AlbumSort.allCases)
    func pagesMatchTheWholeOrder(sort: AlbumSort) throws {
        let db = try seeded(47)
        for reversed in [false, true] {
            let whole = try db.read(AllAlbumsRequest(sortedBy: sort, reversed: reversed))
            let listing = try db.read(AlbumListingRequest(sortedBy: sort, reversed: reversed))
            #expect(listing.count == 47)
            #expect(listing.orderedIDs == nil || listing.orderedIDs == whole.map(\.id))
            let paged = try pages(db, listing, size: 10)
            #expect(paged.map(\.id) == whole.map(\.id), "\(sort) reversed: \(reversed)")
            #expect(paged.map(\.lastScannedAt) == whole.map(\.lastScannedAt))
            #expect(paged.map(\.scanCount) == whole.map(\.scanCount))
        }
    }

    @Test func searchCountsAndPagesOnlyTheMatches() throws {
        let db = try seeded(30)
        let listing = try db.read(AlbumListingRequest(sortedBy: .recentlyScanned, matching: "jazz"))
        #expect(listing.count == 15)
        #expect(try pages(db, listing, size: 4).map(\.id) == db.read(AllAlbumsRequest(sortedBy: .recentlyScanned, matching: "jazz")).map(\.id))
        let none = try db.read(AlbumListingRequest(sortedBy: .artist, matching: ")))"))
        #expect(none.count == 0)
        #expect(try db.read(AlbumPageRequest(of: none, offset: 0, limit: 10)).isEmpty)
    }

    @Test func lastScanFollowsScansAddedAndDeleted() throws {
        let db = try AppDatabase.inMemory()
        let oldAlbum = Album(musicBrainzReleaseID: "0b8a5c1e-54a5-4a8d-9b5e-3f2c6f1d0a01", title: "Old", artist: "A")
        try db.saveScan(of: oldAlbum, method: .vision, at: Date(timeIntervalSince1970: 100))
        try db.saveScan(of: Album(musicBrainzReleaseID: "0b8a5c1e-54a5-4a8d-9b5e-3f2c6f1d0a02", title: "New", artist: "B"), method: .vision, at: Date(timeIntervalSince1970: 200))
        func order() throws -> [String] {
            try db.read(AlbumPageRequest(of: db.read(AlbumListingRequest(sortedBy: .recentlyScanned)), offset: 0, limit: 10)).map(\.album.title)
        }
        #expect(try order() == ["New", "Old"])
        let again = try db.saveScan(of: oldAlbum, method: .vision, at: Date(timeIntervalSince1970: 300))
        #expect(try order() == ["Old", "New"])
        #expect(try db.read(AlbumListingRequest(sortedBy: .recentlyScanned)).count == 2)
        _ = try db.deleteScan(id: again.id)
        #expect(try order() == ["New", "Old"], "deleting the newest scan moves the album back")
    }

    @Test func pagesPastTheEndAreEmpty() throws {
        let db = try seeded(5)
        for sort in [AlbumSort.recentlyScanned, .title] {
            let listing = try db.read(AlbumListingRequest(sortedBy: sort))
            #expect(try db.read(AlbumPageRequest(of: listing, offset: 5, limit: 10)).isEmpty)
            #expect(try db.read(AlbumPageRequest(of: listing, offset: 3, limit: 10)).count == 2)
            #expect(try db.read(AlbumIDsRequest(of: listing, offset: 1, limit: 2)) == db.read(AlbumPageRequest(of: listing, offset: 1, limit: 2)).map(\.id))
        }
    }
}
