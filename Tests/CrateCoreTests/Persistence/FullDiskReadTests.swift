import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Reading on a full disk")
struct FullDiskReadTests {
    /// Bug: with ≤ 40 KB free, `crate history` failed ("database or disk is full" / "disk I/O
    /// error"): the read-write open commits a WAL frame and checks migrations. A full disk at
    /// open now gives a read-only library that writes nothing and says why.
    @Test(arguments: [ResultCode.SQLITE_FULL, ResultCode.SQLITE_IOERR])
    func aFullDiskStillReads(code: ResultCode) throws {
        let directory = try TemporaryDirectory()
        try Self.seed(directory.paths)
        let path = directory.paths.databaseURL.path
        AppDatabase.writableOpenFaults.withLock { $0[path] = DatabaseError(resultCode: code, message: "database or disk is full") }
        defer { _ = AppDatabase.writableOpenFaults.withLock { $0.removeValue(forKey: path) } }
        let before = try Data(contentsOf: directory.paths.databaseURL)

        let database = try AppDatabase.open(paths: directory.paths)
        #expect(database.readOnlyReason == .diskFull(directory.paths.dataDirectory.path))
        #expect(try database.read(HistoryPageRequest()).map(\.album.title) == ["Tusk"])
        #expect(database.readOnlyNotice?.contains("is full") == true)
        #expect(throws: CrateError.diskFull(path: directory.paths.dataDirectory.path)) {
            try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        }
        #expect(try Data(contentsOf: directory.paths.databaseURL) == before, "nothing written")
    }

    private static func seed(_ paths: CratePaths) throws {
        let database = try AppDatabase.open(paths: paths)
        try database.saveScan(of: Album(title: "Tusk", artist: "Fleetwood Mac"), method: .vision)
        _ = try database.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }
}
