import Foundation
import GRDB
import Testing
@testable import CrateCore

/// The window opens the library without reading the whole file (`IntegrityCheck.deferred`) and
/// checks it in the background (docs/reliability.md #3).
@Suite("Database integrity check")
struct DatabaseIntegrityCheckTests {
    /// A library of `albums` albums, checkpointed (everything in the main file), then closed.
    private func makeLibrary(in dir: TemporaryDirectory, albums: Int) throws {
        let db = try AppDatabase.open(paths: dir.paths)
        for i in 0..<albums {
            try db.saveScan(of: .sample("Album \(i) " + String(repeating: "x", count: 200)), method: .vision)
        }
        _ = try db.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// Scribbles over `pages` pages from 60 % into the file: album and scan rows, their indexes
    /// and the search index, written after the schema, so the file still opens and only a
    /// whole-file check finds the damage.
    private func damagePages(of url: URL, pages: Int) throws {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let first = (size / 4096) * 6 / 10
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(first * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pages * 4096))
        try handle.close()
    }

    private func siblings(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.paths.dataDirectory.path)
    }

    @Test func aDeferredOpenOfASoundLibraryChecksItLaterAndKeepsWriting() throws {
        let dir = try TemporaryDirectory()
        try makeLibrary(in: dir, albums: 50)
        let db = try AppDatabase.open(paths: dir.paths, integrityCheck: .deferred)
        #expect(db.recoveryNotice == nil)
        #expect(db.verifyIntegrity() == .ok)
        try db.saveScan(of: .sample("After the check"), method: .vision)
        #expect(try db.counts().albums == 51)
        #expect(try !siblings(dir).contains { $0.hasSuffix(".damage-found") })
    }

    @Test func damageFoundInTheBackgroundStopsWritesAndTheNextOpenMovesTheFileAside() throws {
        let dir = try TemporaryDirectory()
        try makeLibrary(in: dir, albums: 1500)
        try damagePages(of: dir.paths.databaseURL, pages: 8)

        // The window's open: no whole-file read, so the damage is not seen yet.
        let db = try AppDatabase.open(paths: dir.paths, integrityCheck: .deferred)
        #expect(db.recoveryNotice == nil)
        #expect(try !siblings(dir).contains { $0.hasPrefix("crate.sqlite.damaged-") })

        // The background check finds it: a message for the user, and nothing more is written.
        guard case .damaged(let message) = db.verifyIntegrity() else {
            Issue.record("the check did not find the damage")
            return
        }
        #expect(message == CrateError.libraryDamaged(path: dir.paths.databaseURL.path).message)
        #expect(throws: CrateError.libraryDamaged(path: dir.paths.databaseURL.path)) {
            try db.saveScan(of: .sample("Not saved"), method: .vision)
        }
        #expect(try siblings(dir).contains("crate.sqlite.damage-found"))

        // The next start (deferred again): the marker makes it check at open and move the file aside.
        let next = try AppDatabase.open(paths: dir.paths, integrityCheck: .deferred)
        #expect(next.recoveryNotice != nil)
        #expect(try next.counts().albums == 0)
        let names = try siblings(dir)
        #expect(names.contains { $0.hasPrefix("crate.sqlite.damaged-") })
        #expect(!names.contains("crate.sqlite.damage-found"))
        #expect(next.verifyIntegrity() == .ok)
        try next.saveScan(of: .sample("A new start"), method: .vision)
    }

    @Test func anOpenAtOnceStillMovesADamagedFileAsideBeforeUse() throws {
        let dir = try TemporaryDirectory()
        try makeLibrary(in: dir, albums: 1500)
        try damagePages(of: dir.paths.databaseURL, pages: 8)
        let db = try AppDatabase.open(paths: dir.paths)
        // Said plainly: SQLite's page numbers and error codes go to the log.
        let notice = try #require(db.recoveryNotice)
        #expect(notice.contains("parts of the file are damaged"))
        #expect(!notice.contains("***") && !notice.contains("Page ") && !notice.contains("malformed"))
        #expect(try db.counts().albums == 0)
        #expect(try siblings(dir).contains { $0.hasPrefix("crate.sqlite.damaged-") })
    }

    @Test func aStaleMarkerOnASoundLibraryIsCheckedAndDropped() throws {
        let dir = try TemporaryDirectory()
        try makeLibrary(in: dir, albums: 20)
        let marker = dir.paths.databaseURL.path + ".damage-found"
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("old\n".utf8)))
        let db = try AppDatabase.open(paths: dir.paths, integrityCheck: .deferred)
        #expect(db.recoveryNotice == nil)
        #expect(try db.counts().albums == 20)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
