import Foundation
import GRDB

extension MusicFile: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "music_file"

    enum CodingKeys: String, CodingKey {
        case id, path, mtimeNs, size, status, problem, title, artist, albumArtist, album, disc, track, durationMs
        case musicBrainzAlbumID = "mbAlbumId"
        case musicBrainzReleaseGroupID = "mbReleaseGroupId"
        case musicBrainzTrackID = "mbTrackId"
        case albumKey, groupKey, tagged
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// What the index holds, for `crate music status`.
public struct MusicIndexCounts: Equatable, Sendable, Codable {
    public var files: Int
    public var tracks: Int
    public var unreadable: Int
    public var albums: Int
}

extension AppDatabase {
    /// Every indexed file's path, mtime and size: what an incremental scan compares against.
    public func musicFileStamps() throws -> [String: (mtimeNs: Int64, size: Int64)] {
        try writer.read { db in
            var stamps: [String: (Int64, Int64)] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, mtimeNs, size FROM music_file")
            while let row = try rows.next() {
                stamps[row[0]] = (row[1], row[2])
            }
            return stamps
        }
    }

    /// Applies one scan's changes in a single transaction: a scan killed half-way leaves the
    /// index as it was, and the next scan redoes the work.
    public func applyMusicIndexChanges(upserts: [MusicFile], removedPaths: [String]) throws {
        guard !upserts.isEmpty || !removedPaths.isEmpty else { return }
        if isReadOnly { throw CrateError.databaseReadOnly }
        try guardedWrite { db in
            for path in removedPaths {
                try db.execute(sql: "DELETE FROM music_file WHERE path = ?", arguments: [path])
            }
            for file in upserts {
                var row = file
                row.id = try Int64.fetchOne(db, sql: "SELECT id FROM music_file WHERE path = ?", arguments: [file.path])
                if row.id == nil {
                    try row.insert(db)
                } else {
                    try row.update(db)
                }
            }
        }
    }

    /// Every readable indexed file.
    public func readableMusicFiles() throws -> [MusicFile] {
        try writer.read { db in
            try MusicFile.filter(Column("status") == MusicFile.Status.ok.rawValue).order(Column("path")).fetchAll(db)
        }
    }

    /// Files that could not be read, with why.
    public func unreadableMusicFiles() throws -> [MusicFile] {
        try writer.read { db in
            try MusicFile.filter(Column("status") == MusicFile.Status.unreadable.rawValue).order(Column("path")).fetchAll(db)
        }
    }

    public func musicIndexCounts() throws -> MusicIndexCounts {
        try writer.read { db in
            let files = try MusicFile.fetchCount(db)
            let unreadable = try MusicFile.filter(Column("status") == MusicFile.Status.unreadable.rawValue).fetchCount(db)
            let albums = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT groupKey) FROM music_file WHERE status = 'ok'") ?? 0
            return MusicIndexCounts(files: files, tracks: files - unreadable, unreadable: unreadable, albums: albums)
        }
    }

    /// Every album in the crate (for matching against the music folder).
    public func allAlbums() throws -> [Album] {
        try writer.read { db in try Album.order(Column("id")).fetchAll(db) }
    }
}

extension AppDatabase {
    /// How many crate albums have exactly one album on disk, several, or none: the same rules as
    /// `AlbumMatcher` (release id, then release-group id, then name key; readable files only),
    /// answered with indexed queries so a scan with nothing new does not load every file.
    public func musicMatchCounts() throws -> (matched: Int, ambiguous: Int, unmatched: Int) {
        try writer.read { db in
            var matched = 0, ambiguous = 0, unmatched = 0
            func groups(_ column: String, _ value: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT groupKey) FROM music_file WHERE status = 'ok' AND \(column) = ?",
                                 arguments: [value]) ?? 0
            }
            let rows = try Row.fetchCursor(db, sql: "SELECT mbReleaseId, mbReleaseGroupId, title, artist FROM album")
            while let row = try rows.next() {
                var count = 0
                if let release: String = row[0] { count = try groups("mbAlbumId", release.lowercased()) }
                if count == 0, let group: String = row[1] { count = try groups("mbReleaseGroupId", group.lowercased()) }
                if count == 0 { count = try groups("albumKey", AlbumNameKey.key(artist: row[3], title: row[2])) }
                switch count {
                case 0: unmatched += 1
                case 1: matched += 1
                default: ambiguous += 1
                }
            }
            return (matched, ambiguous, unmatched)
        }
    }
}
