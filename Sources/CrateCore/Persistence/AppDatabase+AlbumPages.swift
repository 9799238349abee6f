import Foundation
import GRDB

extension AppDatabase {
    // MARK: - The crate grid, a page at a time

    /// The grid's listing: a COUNT, plus the ids in order for sorts without an index. The default
    /// order (last scan, newest first) costs the same for 100 000 albums as for 1 000: nothing is
    /// sorted, pages are read off `album_on_lastScanAt_id`.
    public func albumListing(sortedBy sort: AlbumSort, reversed: Bool = false, matching query: String = "", collection: CollectionFilter = .seen,
                             revision: Int = 0) throws -> AlbumListing {
        var listing = AlbumListing(sort: sort, reversed: reversed, query: query, collection: collection, revision: revision)
        guard let filter = Self.albumFilter(query, collection) else { return listing }  // Only punctuation: nothing matches.
        return try reader.read { db in
            if sort == .recentlyScanned {
                listing.count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM album\(filter.sql)", arguments: filter.arguments) ?? 0
                return listing
            }
            let ids: [Int64]
            if sort == .rating {
                ids = try Self.idsByRating(db, reversed: reversed, filter: filter)
            } else {
                ids = try Int64.fetchAll(db, sql: "SELECT album.id FROM album\(filter.sql) ORDER BY \(Self.albumOrder(sort, reversed: reversed))",
                                         arguments: filter.arguments)
            }
            listing.orderedIDs = ids
            listing.count = ids.count
            return listing
        }
    }

    /// Albums `offset ..< offset + limit` of `listing`, in its order (fewer at the end, or when
    /// albums went away since the listing was made).
    public func albumPage(of listing: AlbumListing, offset: Int, limit: Int) throws -> [AlbumSummary] {
        guard offset >= 0, limit > 0 else { return [] }
        let columns = "album.*, album.lastScanAt AS lastScannedAt, (SELECT COUNT(*) FROM scan WHERE scan.albumId = album.id) AS scanCount"
        if let ordered = listing.orderedIDs {
            guard offset < ordered.count else { return [] }
            let slice = Array(ordered[offset..<min(ordered.count, offset + limit)])
            let found = try reader.read { db in
                try Self.summaries(db, sql: "SELECT \(columns) FROM album WHERE album.id IN (\(slice.map(String.init).joined(separator: ",")))", arguments: [])
            }
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return slice.compactMap { byID[$0] }
        }
        guard let filter = Self.albumFilter(listing.query, listing.collection) else { return [] }
        return try reader.read { db in
            try Self.summaries(db, sql: "SELECT \(columns) FROM album\(filter.sql) ORDER BY \(Self.albumOrder(listing.sort, reversed: listing.reversed)) LIMIT ? OFFSET ?",
                               arguments: filter.arguments + [limit, offset])
        }
    }

    /// Ids `offset ..< offset + limit` of `listing` (what plays after an album tapped in the grid).
    public func albumIDs(of listing: AlbumListing, offset: Int, limit: Int) throws -> [Int64] {
        guard offset >= 0, limit > 0 else { return [] }
        if let ordered = listing.orderedIDs {
            guard offset < ordered.count else { return [] }
            return Array(ordered[offset..<min(ordered.count, offset + limit)])
        }
        guard let filter = Self.albumFilter(listing.query, listing.collection) else { return [] }
        return try reader.read { db in
            try Int64.fetchAll(db, sql: "SELECT album.id FROM album\(filter.sql) ORDER BY \(Self.albumOrder(listing.sort, reversed: listing.reversed)) LIMIT ? OFFSET ?",
                               arguments: filter.arguments + [limit, offset])
        }
    }

    /// The WHERE clause of a search within the owned, wanted or all albums (empty for none); nil
    /// when the text can match nothing.
    private static func albumFilter(_ query: String, _ collection: CollectionFilter) -> (sql: String, arguments: StatementArguments)? {
        let owned = collection == .seen ? "" : Self.condition(collection)
        if let pattern = FTS5Pattern(matchingAllPrefixesIn: query) {
            return (" WHERE album.id IN (SELECT rowid FROM album_fts WHERE album_fts MATCH ?)\(owned.isEmpty ? "" : " AND \(owned)")", [pattern])
        }
        guard query.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return (owned.isEmpty ? "" : " WHERE \(owned)", [])
    }

    /// ORDER BY terms for the grid (titles and artists in natural order).
    private static func albumOrder(_ sort: AlbumSort, reversed: Bool) -> String {
        let natural = "COLLATE \(NaturalOrder.collationName)"
        let up = reversed ? " DESC" : "", down = reversed ? "" : " DESC"
        switch sort {
        case .recentlyScanned: return "album.lastScanAt\(down), album.id\(down)"
        case .artist: return "album.artistSortKey \(natural)\(up), album.title \(natural)\(up), album.id\(up)"
        case .title, .rating: return "album.title \(natural)\(up), album.artistSortKey \(natural)\(up), album.id\(up)"
        case .year:
            return "(NULLIF(TRIM(album.year), '') IS NULL), NULLIF(TRIM(album.year), '')\(up), album.artistSortKey \(natural), album.title \(natural), album.id"
        }
    }

    /// Highest rating first (lowest when reversed), albums without a review last; equal ratings
    /// in artist order. Reviews are keyed by a normalised artist + title, so the join is here.
    private static func idsByRating(_ db: Database, reversed: Bool, filter: (sql: String, arguments: StatementArguments)) throws -> [Int64] {
        let ratings = Dictionary(try Row.fetchAll(db, sql: "SELECT key, rating FROM review").map { ($0[0] as String, $0[1] as Double) },
                                 uniquingKeysWith: { first, _ in first })
        let natural = "COLLATE \(NaturalOrder.collationName)"
        let rows = try Row.fetchAll(db, sql: "SELECT album.id, album.artist, album.title FROM album\(filter.sql) ORDER BY album.artistSortKey \(natural), album.title \(natural), album.id",
                                    arguments: filter.arguments)
        let rated = rows.map { row -> (Int64, Double) in (row[0], ratings[ReviewKey.make(artist: row[1], title: row[2])] ?? -1) }
        let sorted = rated.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element)
        guard reversed else { return sorted.map(\.0) }
        return (sorted.filter { $0.1 >= 0 }.reversed() + sorted.filter { $0.1 < 0 }).map(\.0)
    }

    private static func summaries(_ db: Database, sql: String, arguments: StatementArguments) throws -> [AlbumSummary] {
        let statement = try db.makeStatement(sql: sql)
        let columns = AlbumColumnIndexes(names: statement.columnNames)
        var summaries: [AlbumSummary] = []
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try cursor.next() {
            summaries.append(AlbumSummary(album: columns.album(from: row), lastScannedAt: row[columns.lastScannedAt], scanCount: row[columns.scanCount]))
        }
        return summaries
    }
}
