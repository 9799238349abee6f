import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Scan candidates")
struct ScanCandidateTests {
    private let rumours = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000001", title: "Rumours", artist: "Fleetwood Mac", year: "1977")
    private let live = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000002", title: "Rumours (Live)", artist: "Fleetwood Mac", year: "2023")
    private let deluxe = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000003", title: "Rumours (Deluxe)", artist: "Fleetwood Mac",
                               year: "2013", label: "Warner")

    private var runnersUp: [ScanCandidate] { [ScanCandidate(album: live, score: 0.8), ScanCandidate(album: deluxe, score: 0.6)] }

    @Test func migrationV7AddsTheTableAfterV6() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.reader.read { try $0.tableExists("scan_candidate") })
        let known = AppDatabase.knownMigrations
        #expect(known.firstIndex(of: "v7-scan-candidates") == known.firstIndex(of: "v6-relative-artwork-paths").map { $0 + 1 })
    }

    @Test func candidatesAreSavedWithTheScanButAreNotInTheCrate() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours, method: .vision, candidates: runnersUp)
        let stored = try db.candidates(forScan: entry.scan.id!)
        #expect(stored.map(\.album.title) == ["Rumours (Live)", "Rumours (Deluxe)"])
        #expect(stored.map(\.score) == [0.8, 0.6])
        #expect(stored[1].album.label == "Warner")
        #expect(stored[1].album.musicBrainzReleaseID == deluxe.musicBrainzReleaseID)
        #expect(try db.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title) == ["Rumours"], "runners-up are not albums of the crate")
    }

    @Test func deletingAScanDeletesItsCandidates() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours, method: .vision, candidates: runnersUp)
        try db.deleteScan(id: entry.scan.id!)
        #expect(try db.candidates(forScan: entry.scan.id!).isEmpty)
        #expect(try db.reader.read { try ScanCandidateRow.fetchCount($0) } == 0)
    }

    @Test func replacingAScanOffersTheReplacedAlbumBack() throws {
        let db = try AppDatabase.inMemory()
        let wrong = try db.saveScan(of: rumours, method: .vision, candidates: runnersUp)
        let chosen = try db.replaceScan(id: wrong.scan.id!, with: live)
        #expect(chosen.scan.method == .manual)
        #expect(chosen.album.title == "Rumours (Live)")
        let offered = try db.candidates(forScan: chosen.scan.id!)
        #expect(offered.map(\.album.title) == ["Rumours (Deluxe)", "Rumours"], "the other runner-up, then the first answer")
        #expect(offered.map(\.score) == [0.6, nil])
        #expect(offered[1].album.id == nil)
        #expect(try db.candidates(forScan: wrong.scan.id!).isEmpty)
    }

    /// After swapping to a runner-up and back, the runner-up was labelled "First answer" (its
    /// score was dropped when it was chosen): every candidate keeps its own label.
    @Test func swappingBackAndForthKeepsEveryLabel() throws {
        let db = try AppDatabase.inMemory()
        let first = try db.saveScan(of: rumours, method: .vision, candidates: runnersUp)
        let toLive = try db.replaceScan(id: first.scan.id!, with: live)
        let back = try db.replaceScan(id: toLive.scan.id!, with: rumours)
        #expect(back.album.title == "Rumours")
        let offered = try db.candidates(forScan: back.scan.id!)
        #expect(offered.map(\.album.title) == ["Rumours (Live)", "Rumours (Deluxe)"])
        #expect(offered.map(\.score) == [0.8, 0.6], "the runner-up keeps its score, nothing is a first answer but Rumours")
        let again = try db.replaceScan(id: back.scan.id!, with: deluxe)
        let third = try db.candidates(forScan: again.scan.id!)
        #expect(third.map(\.album.title) == ["Rumours (Live)", "Rumours"])
        #expect(third.map(\.score) == [0.8, nil])
    }

    @Test func replacingTheLastScanRemovesTheAlbum() throws {
        let db = try AppDatabase.inMemory()
        let wrong = try db.saveScan(of: rumours, method: .vision)
        try db.replaceTracks([Track(albumID: wrong.album.id!, disc: 1, position: 1, title: "Dreams")], forAlbum: wrong.album.id!)
        try db.replaceScan(id: wrong.scan.id!, with: live)
        #expect(try db.album(id: wrong.album.id!) == nil, "left with no scans")
        #expect(try db.tracks(forAlbum: wrong.album.id!).isEmpty)
        #expect(try db.read(AllAlbumsRequest(sortedBy: .artist, matching: "Rumours")).map(\.album.title) == ["Rumours (Live)"])
    }

    @Test func replacingOneOfSeveralScansKeepsTheAlbum() throws {
        let db = try AppDatabase.inMemory()
        try db.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 1))
        let wrong = try db.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 2))
        try db.replaceScan(id: wrong.scan.id!, with: live)
        #expect(try db.album(id: wrong.album.id!) != nil, "another scan still points at it")
        #expect(try db.read(AlbumScansRequest(albumID: wrong.album.id!)).count == 1)
    }

    @Test func replacingAMissingScanChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: rumours, method: .vision)
        #expect(throws: CrateError.notFound("The scan to replace")) {
            try db.replaceScan(id: entry.scan.id! + 1, with: live)
        }
        #expect(try db.read(HistoryPageRequest()).map(\.album.title) == ["Rumours"])
        #expect(try db.counts().albums == 1)
    }

    @Test func scoresLineUpWithTheScoredCandidates() {
        var result = ScanResult(entry: HistoryEntry(scan: Scan(id: 1, albumID: 1, method: .vision), album: rumours))
        result.rankedCandidates = runnersUp + [ScanCandidate(album: deluxe)]
        #expect(result.candidateScores == [0.8, 0.6])
        #expect(result.rankedCandidates.map(\.score) == [0.8, 0.6, nil])
    }
}
