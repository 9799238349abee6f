import Foundation
import GRDB

/// Every album with its last scan time, ordered for the grid, in one go (the CLI's checks, the
/// bench and the tests; the window reads the grid a page at a time: `CrateGridRequest`).
/// `query` filters by full-text search over artist, title, label and genres (prefix match on
/// every word). Titles and artists sort naturally ("96" before "934"); `reversed` turns the
/// chosen order around (albums without a year or rating stay last).
public struct AllAlbumsRequest: ReadRequest {
    public var sort: AlbumSort
    public var reversed: Bool
    public var query: String

    public init(sortedBy sort: AlbumSort, reversed: Bool = false, matching query: String? = nil) {
        self.sort = sort
        self.reversed = reversed
        self.query = query ?? ""
    }

    public func fetch(_ db: Database) throws -> [AlbumSummary] {
        var sql = """
            SELECT album.*, MAX(scan.scannedAt) AS lastScannedAt, COUNT(scan.id) AS scanCount
            FROM album
            LEFT JOIN scan ON scan.albumId = album.id
            """
        var arguments = StatementArguments()
        if let pattern = FTS5Pattern(matchingAllPrefixesIn: query) {
            sql += " WHERE album.id IN (SELECT rowid FROM album_fts WHERE album_fts MATCH ?)"
            arguments += [pattern]
        } else if !query.trimmingCharacters(in: .whitespaces).isEmpty {
            return []  // Only punctuation: nothing can match.
        }
        sql += " GROUP BY album.id ORDER BY "
        let natural = "COLLATE \(NaturalOrder.collationName)"
        let up = reversed ? " DESC" : "", down = reversed ? "" : " DESC"
        switch sort {
        case .recentlyScanned: sql += "lastScannedAt\(down), album.id\(down)"
        case .artist: sql += "album.artistSortKey \(natural)\(up), album.title \(natural)\(up), album.id\(up)"
        case .title: sql += "album.title \(natural)\(up), album.artistSortKey \(natural)\(up), album.id\(up)"
        case .rating: sql += "album.artistSortKey \(natural), album.title \(natural), album.id"
        case .year:
            sql += "(NULLIF(TRIM(album.year), '') IS NULL), NULLIF(TRIM(album.year), '')\(up), album.artistSortKey \(natural), album.title \(natural), album.id"
        }
        // The grid reads every album (100 000 of them in a big crate): look columns up by
        // position, resolved once, rather than by name in every row.
        let statement = try db.makeStatement(sql: sql)
        let columns = AlbumColumnIndexes(names: statement.columnNames)
        var summaries: [AlbumSummary] = []
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try cursor.next() {
            summaries.append(AlbumSummary(album: columns.album(from: row), lastScannedAt: row[columns.lastScannedAt], scanCount: row[columns.scanCount]))
        }
        if sort == .rating {
            // Reviews are keyed by a normalised artist + title, so the join happens here.
            let ratings = Dictionary(try Row.fetchAll(db, sql: "SELECT key, rating FROM review").map { ($0[0] as String, $0[1] as Double) },
                                     uniquingKeysWith: { first, _ in first })
            let rated = summaries.map { ($0, ratings[ReviewKey.make(artist: $0.album.artist, title: $0.album.title)] ?? -1) }
            // A stable sort keeps the artist order among equal ratings.
            let sorted = rated.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element)
            guard reversed else { return sorted.map(\.0) }
            // Lowest rating first, but albums without a review still last.
            return (sorted.filter { $0.1 >= 0 }.reversed() + sorted.filter { $0.1 < 0 }).map(\.0)
        }
        return summaries
    }
}
