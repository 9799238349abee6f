import Foundation
import GRDB
import Testing
@testable import CrateCore

/// docs/reliability.md #2: a write that hits a full disk is reported, rolled back whole, and reads go on.
/// The full disk is simulated with `PRAGMA max_page_count` on the writer connection (a read-only
/// directory does not stop root, and a tmpfs cannot be mounted in CI).
@Suite("Disk full")
struct DiskFullTests {
    private static func openLibrary() throws -> AppDatabase {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-full-\(UUID().uuidString)")
        return try AppDatabase.open(paths: CratePaths(
            dataDirectory: root.appendingPathComponent("data"), cacheDirectory: root.appendingPathComponent("cache"),
            configDirectory: root.appendingPathComponent("config"), stateDirectory: root.appendingPathComponent("state")))
    }

    /// Caps the file at its current size: the next write that needs a new page fails SQLITE_FULL.
    private static func fillDisk(_ db: AppDatabase) throws {
        try db.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }

    private static func freeSpace(_ db: AppDatabase) throws {
        try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1073741823") }
    }

    /// Big enough to need new pages in `album` and in the search index.
    private static let bulkyAlbum = Album(title: String(repeating: "Rumours ", count: 8_000), artist: "Fleetwood Mac", year: "1977")

    @Test func aFullDiskIsAClearErrorAndLeavesNoHalfScan() throws {
        // Given
        let db = try Self.openLibrary()
        try db.saveScan(of: Album(title: "Tusk", artist: "Fleetwood Mac"), method: .vision)
        let before = try db.counts()
        try Self.fillDisk(db)
        // When
        let error = #expect(throws: CrateError.self) {
            try db.saveScan(of: Self.bulkyAlbum, method: .vision)
        }
        // Then
        #expect(error == .diskFull(path: db.fileURL!.path))
        #expect(error?.message.contains("is full") == true)
        #expect(try db.counts() == before)
        let orphans = try db.orphanCounts()
        #expect(orphans.scansWithoutAlbum == 0 && orphans.albumsWithoutArtworkStatus == 0)
        #expect(try db.read(HistoryPageRequest()).map(\.album.title) == ["Tusk"], "reads keep working")
        #expect(try db.integrityCheck() == ["ok"])

        // And once there is room again, the same connection saves normally.
        try Self.freeSpace(db)
        try db.saveScan(of: Self.bulkyAlbum, method: .vision)
        #expect(try db.counts().scans == before.scans + 1)
    }

    @Test func aFullDiskDuringABatchSaveKeepsThePhotoQueued() throws {
        // Given
        let db = try Self.openLibrary()
        let queue = BatchQueue(database: db)
        try queue.enqueue([URL(fileURLWithPath: "/photos/a.jpg")])
        let item = try #require(try queue.next())
        try Self.fillDisk(db)
        // When
        #expect(throws: CrateError.diskFull(path: db.fileURL!.path)) {
            try queue.markDone(item, album: Self.bulkyAlbum, method: .localMatch)
        }
        // Then: no scan, and the photo is still waiting for the next run
        #expect(try db.counts().scans == 0)
        #expect(try queue.counts() == BatchCounts(pending: 1, done: 0, failed: 0))
        // As `BatchRunner` does after a full disk: the photo is given back (its lease ended).
        #expect(try queue.settle(item, after: CrateError.diskFull(path: db.fileURL!.path)) == false)
        try Self.freeSpace(db)
        let again = try #require(try queue.next())
        try queue.markDone(again, album: Self.bulkyAlbum, method: .localMatch)
        #expect(try queue.counts() == BatchCounts(pending: 0, done: 1, failed: 0))
    }

    @Test func otherIOErrorsAreUserFacingToo() {
        let error = AppDatabase.userFacing(DatabaseError(resultCode: .SQLITE_IOERR_WRITE, message: "disk I/O error"), path: "/x")
        #expect(error as? CrateError == .databaseWriteFailed(reason: "disk I/O error"))
    }
}
