import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Library (the crate grid)

    /// Every album with its last scan time, ordered for the grid. `query` filters by full-text
    /// search over artist, title, label and genres (prefix match on every word).
    public func albums(sortedBy sort: AlbumSort, matching query: String? = nil) throws -> [AlbumSummary] {
        try reader.read { db in
            var sql = """
                SELECT album.*, MAX(scan.scannedAt) AS lastScannedAt, COUNT(scan.id) AS scanCount
                FROM album
                LEFT JOIN scan ON scan.albumId = album.id
                """
            var arguments = StatementArguments()
            if let query, let pattern = FTS5Pattern(matchingAllPrefixesIn: query) {
                sql += " WHERE album.id IN (SELECT rowid FROM album_fts WHERE album_fts MATCH ?)"
                arguments += [pattern]
            } else if let query, !query.trimmingCharacters(in: .whitespaces).isEmpty {
                return []  // Only punctuation: nothing can match.
            }
            sql += " GROUP BY album.id ORDER BY "
            switch sort {
            case .recentlyScanned: sql += "lastScannedAt DESC, album.id DESC"
            case .artist: sql += "album.artistSortKey COLLATE NOCASE, album.title COLLATE NOCASE, album.id"
            case .title: sql += "album.title COLLATE NOCASE, album.artistSortKey COLLATE NOCASE, album.id"
            }
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                AlbumSummary(album: try Album(row: row), lastScannedAt: row["lastScannedAt"], scanCount: row["scanCount"])
            }
        }
    }

    /// The scans of one album, newest first.
    public func scans(ofAlbum albumID: Int64) throws -> [Scan] {
        try reader.read { db in
            try Scan.filter(Scan.Columns.albumID == albumID).order(Scan.Columns.scannedAt.desc).fetchAll(db)
        }
    }
}
