import Foundation
import Testing
@testable import CrateCore

/// Owned / wanted / seen / new, and the verdict a scan gives, as the collection stood before it.
@Suite("Collection and verdict")
struct CollectionVerdictTests {
    private let vinylRelease = "11111111-1111-4111-8111-111111111111"
    private let cdRelease = "22222222-2222-4222-8222-222222222222"
    private let group = "33333333-3333-4333-8333-333333333333"

    private func rumours(_ release: String) -> Album {
        Album(musicBrainzReleaseID: release, musicBrainzReleaseGroupID: group, title: "Rumours", artist: "Fleetwood Mac", year: "1977")
    }

    private func facts(_ release: String, format: String, country: String) -> ReleaseFacts {
        ReleaseFacts(releaseID: release, barcode: "075992731310", labels: ["Warner Bros. Records"], country: country, date: "1977-02-04",
                     media: [ReleaseMedium(position: 1, format: format, title: nil, trackCount: 11)])
    }

    @Test func aFirstScanIsNewAndASecondIsSeen() throws {
        let db = try AppDatabase.inMemory()
        let first = try db.saveScan(of: rumours(vinylRelease), method: .vision, at: Date(timeIntervalSince1970: 1_000_000))
        #expect(try db.verdict(for: first.album, excludingScan: first.scan.id).kind == .new)
        let second = try db.saveScan(of: rumours(vinylRelease), method: .localMatch, at: Date(timeIntervalSince1970: 2_000_000))
        let verdict = try db.verdict(for: second.album, excludingScan: second.scan.id)
        #expect(verdict.kind == .seen)
        #expect(verdict.seenAt == Date(timeIntervalSince1970: 1_000_000))
    }

    @Test func ownedCopiesAreSummarisedFromTheirReleaseFacts() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let albumID = try #require(entry.album.id)
        try db.saveReleaseDetails(albumID: albumID, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                  facts: facts(vinylRelease, format: "12\" Vinyl", country: "GB"))
        let copy = try db.own(albumID: albumID, note: "gatefold")
        #expect(copy.format == "12\" Vinyl")
        #expect(copy.releaseID == vinylRelease)
        let verdict = try db.verdict(for: entry.album)
        #expect(verdict.kind == .owned)
        #expect(verdict.copies.map(\.summary) == ["12\" Vinyl, 1977, GB"])
        #expect(!verdict.otherPressing)
        #expect(verdict.detail() == "12\" Vinyl, 1977, GB")
    }

    @Test func anotherPressingOfAnOwnedAlbumSaysSo() throws {
        let db = try AppDatabase.inMemory()
        let cd = try db.saveScan(of: rumours(cdRelease), method: .vision)
        let cdID = try #require(cd.album.id)
        try db.own(albumID: cdID, format: "CD")
        // The vinyl is a different release of the same release group.
        let vinyl = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let vinylID = try #require(vinyl.album.id)
        #expect(vinylID != cdID)
        try db.saveReleaseDetails(albumID: vinylID, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                  facts: facts(vinylRelease, format: "12\" Vinyl", country: "US"))
        let verdict = try db.verdict(for: try #require(try db.album(id: vinylID)), excludingScan: vinyl.scan.id)
        #expect(verdict.kind == .owned)
        #expect(verdict.otherPressing)
        #expect(verdict.detail() == "You own this album on CD; this is the 12\" Vinyl.")
    }

    @Test func wantedComesAfterOwnedAndUndoRestoresTheDate() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let albumID = try #require(entry.album.id)
        let when = Date(timeIntervalSince1970: 5_000_000)
        #expect(try db.want(albumID: albumID, at: when) == nil)
        #expect(try db.verdict(for: entry.album).kind == .wanted)
        // Wanting again keeps the first date.
        #expect(try db.want(albumID: albumID, at: when.addingTimeInterval(60)) == when)
        let was = try db.unwant(albumID: albumID)
        #expect(was == when)
        #expect(try db.read(CollectionStateRequest(albumID: albumID)).wantedAt == nil)
        try db.restoreWanted(albumID: albumID, wantedAt: was)
        #expect(try db.read(CollectionStateRequest(albumID: albumID)).wantedAt == when)
        try db.own(albumID: albumID, format: "CD")
        #expect(try db.verdict(for: entry.album).kind == .owned)
    }

    @Test func unownRemovesTheNewestCopyAndRestoreBringsItBack() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let albumID = try #require(entry.album.id)
        // Whole seconds: the database keeps dates to the millisecond.
        let first = try db.own(albumID: albumID, format: "CD", at: Date(timeIntervalSince1970: 1_000))
        let second = try db.own(albumID: albumID, format: "Cassette", note: "car copy", at: Date(timeIntervalSince1970: 2_000))
        let removed = try #require(try db.unown(albumID: albumID))
        #expect(removed == second)
        try db.restoreCopy(removed)
        #expect(try db.read(CollectionStateRequest(albumID: albumID)).copies == [first, second])
        #expect(try db.unown(albumID: albumID, copyID: first.id) == first)
        #expect(try db.unown(albumID: albumID, copyID: 999) == nil)
    }

    @Test func countsAndFilters() throws {
        let db = try AppDatabase.inMemory()
        var ids: [Int64] = []
        for index in 0..<5 {
            let entry = try db.saveScan(of: Album(title: "Album \(index)", artist: "Artist"), method: .vision)
            ids.append(try #require(entry.album.id))
        }
        try db.own(albumID: ids[0])
        try db.own(albumID: ids[0])
        try db.own(albumID: ids[1])
        try db.want(albumID: ids[1])
        try db.want(albumID: ids[2])
        #expect(try db.read(CollectionCountsRequest()) == CollectionCounts(seen: 5, owned: 2, wanted: 2))
        #expect(try Set(db.read(CollectionAlbumsRequest(.owned)).compactMap(\.id)) == [ids[0], ids[1]])
        #expect(try Set(db.read(CollectionAlbumsRequest(.wanted)).compactMap(\.id)) == [ids[1], ids[2]])
        #expect(try db.read(CollectionAlbumsRequest(.seen)).count == 5)
    }

    @Test func anOwnedAlbumStaysWhenItsOnlyScanIsSwitchedAway() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let albumID = try #require(entry.album.id)
        try db.own(albumID: albumID)
        try db.replaceScan(id: entry.scan.id ?? -1, with: Album(title: "Tusk", artist: "Fleetwood Mac"))
        #expect(try db.album(id: albumID) != nil)
    }

    @Test func badInputIsAClearError() throws {
        let db = try AppDatabase.inMemory()
        #expect(throws: CrateError.self) { try db.own(albumID: 42) }
        #expect(throws: CrateError.self) { try db.want(albumID: 42) }
        #expect(try db.unown(albumID: 42) == nil)
    }

    @Test func barcodesFindAlbumsInEitherSpelling() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours(vinylRelease), method: .vision)
        let albumID = try #require(entry.album.id)
        try db.saveReleaseDetails(albumID: albumID, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                  facts: facts(vinylRelease, format: "12\" Vinyl", country: "US"))
        #expect(try db.albums(withBarcode: "075992731310").map(\.id) == [albumID])
        #expect(try db.albums(withBarcode: "0075992731310").map(\.id) == [albumID])
        #expect(try db.albums(withBarcode: "5099902943527").isEmpty)
    }
}
