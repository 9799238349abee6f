import Foundation
import GRDB

extension AppDatabase {
    /// SQLite's full `PRAGMA integrity_check`: `["ok"]` for a sound file, else the problems found.
    public func integrityCheck() throws -> [String] {
        try reader.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Ids of every saved scan (checks after a crash: was each reported scan kept?).
    public func scanIDs() throws -> Set<Int64> {
        try reader.read { db in Set(try Int64.fetchAll(db, sql: "SELECT id FROM scan")) }
    }

    /// Rows that break the "no half scan" invariant: scans whose album is missing, and albums
    /// without an artwork status. Both must be 0 after any failure (docs/reliability.md #2).
    public func orphanCounts() throws -> (scansWithoutAlbum: Int, albumsWithoutArtworkStatus: Int) {
        try reader.read { db in
            let scans = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan WHERE albumId NOT IN (SELECT id FROM album)") ?? 0
            let albums = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM album WHERE artworkStatus IS NULL OR artworkStatus = ''") ?? 0
            return (scans, albums)
        }
    }
}
