import Foundation
import GRDB

extension MusicFile: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "music_file"

    enum CodingKeys: String, CodingKey {
        case id, path, mtimeNs, size, status, problem, title, artist, albumArtist, album, disc, track, durationMs
        case musicBrainzAlbumID = "mbAlbumId"
        case musicBrainzReleaseGroupID = "mbReleaseGroupId"
        case musicBrainzTrackID = "mbTrackId"
        case albumKey, groupKey, tagged, r128AlbumGainDb
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

    /// What the last scans saw in each directory, by path (`music_dir`).
    public func musicDirectories() throws -> [String: MusicDirectoryRecord] {
        try writer.read { db in
            var records: [String: MusicDirectoryRecord] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, mtimeNs, entries, digest FROM music_dir")
            while let row = try rows.next() {
                let path: String = row[0]
                let entries: Data = row[2]
                records[path] = MusicDirectoryRecord(path: path, mtimeNs: row[1], entries: [UInt8](entries), digest: row[3])
            }
            return records
        }
    }

    /// The folders scans have indexed (`crate music scan DIR` as well as the configured ones):
    /// the directories of `music_dir` whose parent is not one, sorted.
    public func indexedMusicFolders() throws -> [String] {
        let paths = try writer.read { db in try String.fetchSet(db, sql: "SELECT path FROM music_dir") }
        return paths.filter { !paths.contains(($0 as NSString).deletingLastPathComponent) }.sorted()
    }

    /// Applies one scan's changes in a single transaction: a scan killed half-way leaves the
    /// index as it was, and the next scan redoes the work. Statements are prepared once.
    public func applyMusicIndexChanges(upserts: [MusicFile], removedPaths: [String],
                                       directories: [MusicDirectoryRecord] = [], removedDirectories: [String] = []) throws {
        guard !upserts.isEmpty || !removedPaths.isEmpty || !directories.isEmpty || !removedDirectories.isEmpty else { return }
        if isReadOnly { throw CrateError.databaseReadOnly }
        try guardedWrite { db in
            let deleteFile = try db.cachedStatement(sql: "DELETE FROM music_file WHERE path = ?")
            for path in removedPaths {
                try deleteFile.execute(arguments: [path])
            }
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO music_file (path, mtimeNs, size, status, problem, title, artist, albumArtist, album, disc, track,
                                        durationMs, mbAlbumId, mbReleaseGroupId, mbTrackId, albumKey, groupKey, tagged, r128AlbumGainDb)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET mtimeNs = excluded.mtimeNs, size = excluded.size, status = excluded.status,
                    problem = excluded.problem, title = excluded.title, artist = excluded.artist,
                    albumArtist = excluded.albumArtist, album = excluded.album, disc = excluded.disc, track = excluded.track,
                    durationMs = excluded.durationMs, mbAlbumId = excluded.mbAlbumId,
                    mbReleaseGroupId = excluded.mbReleaseGroupId, mbTrackId = excluded.mbTrackId,
                    albumKey = excluded.albumKey, groupKey = excluded.groupKey, tagged = excluded.tagged,
                    r128AlbumGainDb = excluded.r128AlbumGainDb
                """)
            for file in upserts {
                try upsert.execute(arguments: [
                    file.path, file.mtimeNs, file.size, file.status.rawValue, file.problem, file.title, file.artist,
                    file.albumArtist, file.album, file.disc, file.track, file.durationMs, file.musicBrainzAlbumID,
                    file.musicBrainzReleaseGroupID, file.musicBrainzTrackID, file.albumKey, file.groupKey, file.tagged, file.r128AlbumGainDb,
                ])
            }
            let deleteDirectory = try db.cachedStatement(sql: "DELETE FROM music_dir WHERE path = ?")
            for path in removedDirectories {
                try deleteDirectory.execute(arguments: [path])
            }
            let saveDirectory = try db.cachedStatement(sql: """
                INSERT INTO music_dir (path, mtimeNs, entries, digest) VALUES (?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET mtimeNs = excluded.mtimeNs, entries = excluded.entries, digest = excluded.digest
                """)
            for record in directories {
                try saveDirectory.execute(arguments: [record.path, record.mtimeNs, Data(record.entries), record.digest])
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
            // No readable file indexed (no music folder, the usual case): every album is
            // unmatched, and counting them is one index scan instead of three queries an album.
            if try Int.fetchOne(db, sql: "SELECT 1 FROM music_file WHERE status = 'ok' LIMIT 1") == nil {
                return (0, 0, try Album.fetchCount(db))
            }
            func groups(_ column: String, _ value: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT groupKey) FROM music_file WHERE status = 'ok' AND \(column) = ?",
                                 arguments: [value]) ?? 0
            }
            let rows = try Row.fetchCursor(db, sql: "SELECT mbReleaseId, mbReleaseGroupId, title, artist FROM album")
            while let row = try rows.next() {
                var count = 0
                if let release: String = row[0] { count = try groups("mbAlbumId", release.lowercased()) }
                if count == 0, let group: String = row[1] { count = try groups("mbReleaseGroupId", group.lowercased()) }
                if count == 0 { count = try groups("albumKey", MusicText.albumKey(artist: row[3], title: row[2])) }
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
