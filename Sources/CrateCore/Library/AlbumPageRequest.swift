import GRDB

/// Albums `offset ..< offset + limit` of a listing, in its order (fewer at the end, or when
/// albums went away since the listing was made).
public struct AlbumPageRequest: ReadRequest {
    public var listing: AlbumListing
    public var offset: Int
    public var limit: Int

    public init(of listing: AlbumListing, offset: Int, limit: Int) {
        self.listing = listing
        self.offset = offset
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [AlbumSummary] {
        guard offset >= 0, limit > 0 else { return [] }
        let columns = "album.*, album.lastScanAt AS lastScannedAt, (SELECT COUNT(*) FROM scan WHERE scan.albumId = album.id) AS scanCount"
        if let ordered = listing.orderedIDs {
            guard offset < ordered.count else { return [] }
            let slice = Array(ordered[offset..<min(ordered.count, offset + limit)])
            let found = try Self.summaries(db, sql: "SELECT \(columns) FROM album WHERE album.id IN (\(slice.map(String.init).joined(separator: ",")))", arguments: [])
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return slice.compactMap { byID[$0] }
        }
        guard let filter = AlbumListingSQL.filter(listing.query, listing.collection) else { return [] }
        return try Self.summaries(db, sql: "SELECT \(columns) FROM album\(filter.sql) ORDER BY \(AlbumListingSQL.order(listing.sort, reversed: listing.reversed)) LIMIT ? OFFSET ?",
                                  arguments: filter.arguments + [limit, offset])
    }

    /// Columns are looked up by position, resolved once per statement, not by name in every row.
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
