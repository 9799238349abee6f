import Foundation
import GRDB
import Testing
@testable import CrateCore

/// docs/reliability.md #4: a library Crate must not change (written by a newer Crate) is opened
/// truly read-only: not a byte, not a WAL frame is written.
@Suite("Read-only library")
struct ReadOnlyLibraryTests {
    /// Size, modification time and contents of the library file and its WAL. A missing WAL and
    /// an empty one are the same (no frames): SQLite's read-only connection may create an empty
    /// one to take its locks, which writes nothing.
    private struct Snapshot: Equatable {
        let database: Data
        let databaseModified: Date?
        let wal: Data
        let walModified: Date?

        init(_ url: URL) throws {
            let fm = FileManager.default
            database = try Data(contentsOf: url)
            databaseModified = try fm.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            let walPath = url.path + "-wal"
            wal = fm.contents(atPath: walPath) ?? Data()
            walModified = wal.isEmpty ? nil : (try? fm.attributesOfItem(atPath: walPath))?[.modificationDate] as? Date
        }
    }

    /// A library with one scan whose last migration this build does not know.
    private func newerLibrary(_ dir: TemporaryDirectory) throws {
        let db = try AppDatabase.open(paths: dir.paths)
        try db.saveScan(of: .sample(), method: .vision)
        try db.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
    }

    @Test func aNewerLibraryIsReadWithoutWritingAByte() throws {
        let dir = try TemporaryDirectory()
        try newerLibrary(dir)
        let before = try Snapshot(dir.paths.databaseURL)
        // Some file systems keep whole seconds: a write must show in the time.
        Thread.sleep(forTimeInterval: 1.1)
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            #expect(db.isReadOnly)
            #expect(try db.read(HistoryPageRequest()).count == 1)
            let during = try Snapshot(dir.paths.databaseURL)
            #expect(during == before, "nothing written while open: \(during.database.count) \(before.database.count) \(String(describing: during.databaseModified)) \(String(describing: before.databaseModified)) wal \(during.wal.count) \(before.wal.count)")
            #expect(throws: CrateError.databaseReadOnly) { try db.saveScan(of: .sample(), method: .vision) }
        }
        #expect(try Snapshot(dir.paths.databaseURL) == before, "nothing written at close either")
    }

    /// The newer Crate is still running, its WAL full of frames: reading leaves them untouched.
    @Test func aNewerLibraryInUseElsewhereIsReadWithoutTouchingItsWAL() throws {
        let dir = try TemporaryDirectory()
        let newer = try AppDatabase.open(paths: dir.paths)
        try newer.saveScan(of: .sample(), method: .vision)
        try newer.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
        let before = try Snapshot(dir.paths.databaseURL)
        #expect(!before.wal.isEmpty)
        Thread.sleep(forTimeInterval: 1.1)
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            #expect(db.isReadOnly)
            #expect(try db.read(HistoryPageRequest()).count == 1, "the scan still only in the WAL is read")
        }
        #expect(try Snapshot(dir.paths.databaseURL) == before)
        _ = newer
    }

    @Test func aHigherUserVersionIsOpenedReadOnly() throws {
        let dir = try TemporaryDirectory()
        do {
            let db = try AppDatabase.open(paths: dir.paths)
            #expect(try db.reader.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == AppDatabase.schemaGeneration,
                    "the schema generation is recorded for tools that do not read grdb_migrations")
            try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = \(AppDatabase.schemaGeneration + 1)") }
        }
        let db = try AppDatabase.open(paths: dir.paths)
        #expect(db.isReadOnly, "a newer schema generation is never written")
    }
}
