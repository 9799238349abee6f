import Foundation
import GRDB

/// Album gains measured by `crate music analyze` (GStreamer's rganalysis), kept in the library and
/// never written into the user's files (docs/decisions/0046-replaygain-and-lossy-gapless.md).
/// One row per album; the folder the files were in is kept, so a gain measured on other files
/// (the album matched to another folder since) is not used.
extension AppDatabase {
    static func createAlbumGain(_ db: Database) throws {
        try db.create(table: "album_gain") { t in
            t.primaryKey("albumID", .integer).references("album", onDelete: .cascade)
            t.column("gainDb", .double).notNull()
            t.column("peak", .double).notNull()
            t.column("directory", .text).notNull()
            t.column("measuredAt", .datetime).notNull()
        }
    }

    /// Stores (or replaces) an album's measured gain; one statement, safe beside other processes.
    public func storeAlbumGain(_ gain: AlbumGain, albumID: Int64, directory: String, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: """
                INSERT INTO album_gain (albumID, gainDb, peak, directory, measuredAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(albumID) DO UPDATE SET gainDb = excluded.gainDb, peak = excluded.peak,
                    directory = excluded.directory, measuredAt = excluded.measuredAt
                """, arguments: [albumID, gain.gainDb, gain.peak, directory, date])
        }
    }

    /// The stored gain of an album, when it was measured on files in `directory` (nil: any folder).
    public func albumGain(albumID: Int64, directory: String? = nil) throws -> AlbumGain? {
        try reader.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT gainDb, peak, directory FROM album_gain WHERE albumID = ?", arguments: [albumID])
            else { return nil }
            if let directory, (row["directory"] as String) != directory { return nil }
            return AlbumGain(gainDb: row["gainDb"], peak: row["peak"])
        }
    }
}
