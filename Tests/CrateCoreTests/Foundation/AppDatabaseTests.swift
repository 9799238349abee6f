import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("AppDatabase")
struct AppDatabaseTests {
    @Test func migrationCreatesTheV1Tables() throws {
        let db = try AppDatabase.inMemory()
        let tables = try db.reader.read { db in
            try ["album", "scan", "review", "track"].filter { try db.tableExists($0) }
        }
        #expect(tables == ["album", "scan", "review", "track"])
        #expect(try db.schemaVersion() == AppDatabase.knownMigrations.last)
        #expect(AppDatabase.knownMigrations.first == "v1")
    }

    @Test func saveScanStoresAlbumAndScanTogether() throws {
        // Given
        let db = try AppDatabase.inMemory()
        // When
        let entry = try db.saveScan(of: .sample(), method: .vision, confidence: 0.9)
        // Then
        #expect(entry.album.id != nil)
        #expect(entry.scan.albumID == entry.album.id)
        #expect(try db.counts() == .init(albums: 1, scans: 1, reviews: 0))
        let stored = try #require(try db.album(id: entry.album.id!))
        #expect(stored.genres == ["rock", "pop"])
        #expect(stored.artistSortKey == "fleetwood mac")
    }

    @Test func everyScanIsSavedAndAKnownReleaseReusesItsAlbum() throws {
        let db = try AppDatabase.inMemory()
        let mbid = "7ec069c0-4424-3169-8ed0-d5e2473e0e84"
        let first = try db.saveScan(of: .sample(mbid: mbid), method: .vision)
        let second = try db.saveScan(of: .sample(mbid: mbid), method: .localMatch)
        #expect(first.album.id == second.album.id)
        #expect(first.scan.id != second.scan.id)
        #expect(try db.counts() == .init(albums: 1, scans: 2, reviews: 0))
    }

    @Test func historyIsNewestFirstWithLimitAndOffset() throws {
        let db = try AppDatabase.inMemory()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        for i in 0..<5 {
            try db.saveScan(of: .sample("Album \(i)"), method: .vision, at: base.addingTimeInterval(Double(i) * 60))
        }
        let all = try db.read(HistoryPageRequest())
        #expect(all.map(\.album.title) == ["Album 4", "Album 3", "Album 2", "Album 1", "Album 0"])
        let page = try db.read(HistoryPageRequest(limit: 2, offset: 1))
        #expect(page.map(\.album.title) == ["Album 3", "Album 2"])
    }

    @Test func deleteAndRestoreAScan() throws {
        let db = try AppDatabase.inMemory()
        let entry = try db.saveScan(of: .sample(), method: .vision)
        let storedTime = try #require(try db.read(HistoryPageRequest()).first?.scan.scannedAt)
        let removed = try #require(try db.deleteScan(id: entry.id))
        #expect(try db.read(HistoryPageRequest()).isEmpty)
        #expect(try db.counts().albums == 1, "the album stays in the crate")
        try db.restoreScan(removed)
        let restored = try db.read(HistoryPageRequest())
        #expect(restored.map(\.id) == [entry.id])
        #expect(restored.first?.scan.scannedAt == storedTime)
    }

    @Test func deletingAnUnknownScanReturnsNil() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.deleteScan(id: 42) == nil)
    }

    @Test func tracksComeBackInDiscThenPositionOrder() throws {
        let db = try AppDatabase.inMemory()
        let album = try db.saveScan(of: .sample(), method: .vision).album
        let id = try #require(album.id)
        try db.replaceTracks([
            Track(albumID: id, disc: 2, position: 1, title: "D2T1"),
            Track(albumID: id, disc: 1, position: 2, title: "D1T2"),
            Track(albumID: id, disc: 1, position: 1, title: "D1T1"),
        ], forAlbum: id)
        #expect(try db.tracks(forAlbum: id).map(\.title) == ["D1T1", "D1T2", "D2T1"])
    }

    @Test func reviewRoundTripsAndReplaces() throws {
        let db = try AppDatabase.inMemory()
        var review = Review(key: "fleetwood mac|rumours", summary: "S.", bullets: ["a", "b", "c"], rating: 9.1, recommendation: "Essential Classic", tier: 1, keyTracks: ["Dreams", "The Chain", "Go Your Own Way"], provider: "anthropic", model: "m", promptVersion: "review-v1", usedSearch: false, generatedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try db.saveReview(review)
        #expect(try db.review(key: review.key) == review)
        review.rating = 8.7
        try db.saveReview(review)
        #expect(try db.review(key: review.key)?.rating == 8.7)
        #expect(try db.counts().reviews == 1)
    }

    @Test func opensAndReopensAFileLibrary() throws {
        let dir = try TemporaryDirectory()
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            try db.saveScan(of: .sample(), method: .vision)
        }
        let reopened = try AppDatabase.open(paths: dir.paths)
        #expect(reopened.recoveryNotice == nil)
        #expect(try reopened.read(HistoryPageRequest()).count == 1)
        #expect(try reopened.schemaVersion() == AppDatabase.knownMigrations.last)
    }

    @Test func aFileThatIsNotSQLiteIsMovedAsideAndReplaced() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.paths.dataDirectory, withIntermediateDirectories: true)
        try Data("this is not a database, just some text".utf8).write(to: dir.paths.databaseURL)
        let db = try AppDatabase.open(paths: dir.paths, now: Date(timeIntervalSince1970: 1_700_000_000))
        let notice = try #require(db.recoveryNotice)
        #expect(notice.contains("not a SQLite database"))
        let moved = dir.paths.databaseURL.path + ".damaged-20231114-221320"
        #expect(notice.contains(moved))
        #expect(FileManager.default.contents(atPath: moved) == Data("this is not a database, just some text".utf8))
        #expect(try db.read(HistoryPageRequest()).isEmpty)
        try db.saveScan(of: .sample(), method: .vision)
    }

    @Test func aDamagedSQLiteFileIsMovedAsideAndReplaced() throws {
        let dir = try TemporaryDirectory()
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            for i in 0..<200 { try db.saveScan(of: .sample("Album \(i)"), method: .vision) }
            _ = try db.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        // Keep the valid header, scribble over the pages behind it.
        let handle = try FileHandle(forWritingTo: dir.paths.databaseURL)
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        let db = try AppDatabase.open(paths: dir.paths)
        #expect(db.recoveryNotice != nil)
        #expect(try db.read(HistoryPageRequest()).isEmpty)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: dir.paths.dataDirectory.path)
        #expect(siblings.contains { $0.hasPrefix("crate.sqlite.damaged-") })
    }

    @Test func anEmptyFileIsAValidNewLibrary() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.paths.dataDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.paths.databaseURL.path, contents: Data())
        let db = try AppDatabase.open(paths: dir.paths)
        #expect(db.recoveryNotice == nil)
        #expect(try db.schemaVersion() == AppDatabase.knownMigrations.last)
        #expect(AppDatabase.knownMigrations.first == "v1")
    }

    @Test func aLibraryFromANewerCrateIsOpenedReadOnlyAndNeverWritten() throws {
        let dir = try TemporaryDirectory()
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            try db.saveScan(of: .sample(), method: .vision)
            // Simulate a future build's migration.
            try db.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
            _ = try db.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        let before = try Data(contentsOf: dir.paths.databaseURL)
        let db = try AppDatabase.open(paths: dir.paths)
        #expect(db.isReadOnly)
        #expect(try db.read(HistoryPageRequest()).count == 1, "reading still works")
        #expect(throws: CrateError.databaseReadOnly) { try db.saveScan(of: .sample(), method: .vision) }
        #expect(throws: CrateError.databaseReadOnly) { try db.deleteScan(id: 1) }
        let after = try Data(contentsOf: dir.paths.databaseURL)
        #expect(before == after)
    }

    @Test func anUnwritableDataDirectoryIsAClearError() throws {
        let dir = try TemporaryDirectory()
        let blocker = dir.url.appendingPathComponent("file")
        try Data().write(to: blocker)
        let paths = CratePaths(dataDirectory: blocker.appendingPathComponent("crate"), cacheDirectory: dir.url, configDirectory: dir.url, stateDirectory: dir.url)
        #expect(throws: CrateError.directoryNotWritable(paths.dataDirectory.path)) {
            try AppDatabase.open(paths: paths)
        }
    }
}

@Suite("History keyset paging")
struct HistoryKeysetTests {
    @Test func pagesAfterTheLastEntryIncludingEqualTimes() throws {
        let db = try AppDatabase.inMemory()
        let same = Date(timeIntervalSince1970: 500)
        for i in 0..<7 {
            // Several scans share one time: the id breaks the tie, so none is skipped or repeated.
            try db.saveScan(of: .sample("Album \(i)"), method: .vision, at: i < 4 ? same : Date(timeIntervalSince1970: Double(i)))
        }
        var seen: [Int64] = []
        var last: Scan?
        repeat {
            let page = try db.read(HistoryPageRequest(limit: 3, after: last))
            seen += page.map(\.id)
            last = page.last?.scan
            if page.count < 3 { break }
        } while true
        #expect(seen == (try db.read(HistoryPageRequest(limit: 100))).map(\.id))
        #expect(Set(seen).count == 7)
    }
}
