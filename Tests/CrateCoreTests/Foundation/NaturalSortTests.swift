import Foundation
import Testing
@testable import CrateCore

@Suite("Natural sort, year sort and sort direction")
struct NaturalSortTests {
    @Test func numbersCompareByValue() {
        #expect(NaturalOrder.precedes("Demo Album 96", "Demo Album 934"))
        #expect(NaturalOrder.precedes("Demo Album 934", "Demo Album 972"))
        #expect(NaturalOrder.precedes("Vol. 2", "Vol. 10"))
        #expect(NaturalOrder.compare("Track 007", "Track 7") == .orderedSame)
        #expect(NaturalOrder.precedes("1999", "Abba"), "digits before letters")
        #expect(NaturalOrder.precedes("Album", "Album 2"), "a prefix comes first")
    }

    @Test func caseAndDiacriticsAreIgnored() {
        #expect(NaturalOrder.compare("björk", "Bjork") == .orderedSame)
        #expect(NaturalOrder.precedes("apple", "Banana"))
        #expect(NaturalOrder.precedes("Élan", "Fable"))
        #expect(NaturalOrder.precedes("Zoë 2", "ZOE 10"))
    }

    private func crate(_ albums: [(String, String, String?)]) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        for (index, (title, artist, year)) in albums.enumerated() {
            try db.saveScan(of: Album(title: title, artist: artist, year: year), method: .vision, at: Date(timeIntervalSince1970: Double(100 + index)))
        }
        return db
    }

    @Test func titleAndArtistSortsAreNatural() throws {
        let db = try crate([("Demo Album 972", "Demo Artist 10", nil), ("Demo Album 96", "Demo Artist 9", nil),
                            ("demo album 934", "demo artist 100", nil), ("Démo Album 5", "Demo Artist 2", nil)])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title)).map(\.album.title) == ["Démo Album 5", "Demo Album 96", "demo album 934", "Demo Album 972"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.artist) == ["Demo Artist 2", "Demo Artist 9", "Demo Artist 10", "demo artist 100"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, reversed: true)).map(\.album.title) == ["Demo Album 972", "demo album 934", "Demo Album 96", "Démo Album 5"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .title, matching: "demo")).count == 4)
    }

    @Test func yearSortKeepsUndatedLastInBothDirections() throws {
        let db = try crate([("B", "X", "1977"), ("A", "X", nil), ("C", "X", "1959"), ("D", "X", "2001"), ("E", "X", "")])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .year)).map(\.album.title) == ["C", "B", "D", "A", "E"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .year, reversed: true)).map(\.album.title) == ["D", "B", "C", "A", "E"])
    }

    @Test func recentSortReverses() throws {
        let db = try crate([("First", "X", nil), ("Second", "X", nil), ("Third", "X", nil)])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .recentlyScanned)).map(\.album.title) == ["Third", "Second", "First"])
        #expect(try db.read(AllAlbumsRequest(sortedBy: .recentlyScanned, reversed: true)).map(\.album.title) == ["First", "Second", "Third"])
    }

    @MainActor
    @Test func storeReloadsWhenDirectionChanges() async throws {
        let store = LibraryStore(database: try crate([("Vol. 10", "X", nil), ("Vol. 9", "X", nil)]))
        await store.setSort(.title)
        #expect(store.state.value.albums.map(\.album.title) == ["Vol. 9", "Vol. 10"])
        await store.setReversed(true)
        #expect(store.state.value.reversed)
        #expect(store.state.value.albums.map(\.album.title) == ["Vol. 10", "Vol. 9"])
    }
}

@Suite("Album counts")
@MainActor
struct AlbumCountTests {
    @Test func countsTheCrateAndTheSearchResults() async throws {
        let db = try AppDatabase.inMemory()
        let store = LibraryStore(database: db)
        #expect(store.state.value.countText == nil, "nothing before the first load")
        await store.reload()
        #expect(store.state.value.countText == "0 albums")
        try db.saveScan(of: Album(title: "Kind of Blue", artist: "Miles Davis"), method: .vision)
        await store.reload()
        #expect(store.state.value.countText == "1 album")
        try db.saveScan(of: Album(title: "Blue Train", artist: "John Coltrane"), method: .vision)
        try db.saveScan(of: Album(title: "Homogenic", artist: "Björk"), method: .vision)
        await store.search("blue")
        #expect(store.state.value.countText == "2 of 3")
        await store.search("")
        #expect(store.state.value.countText == "3 albums")
        #expect(LibraryState.grouped(2000) == "2,000")
        #expect(LibraryState.grouped(100_000) == "100,000")
        #expect(LibraryState.grouped(999) == "999")
        #expect(LibraryState.grouped(1_234_567) == "1,234,567")
    }
}
