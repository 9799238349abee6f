import GRDB

/// The grid's listing: a COUNT, plus the ids in order for sorts without an index. The default
/// order (last scan, newest first) costs the same for 100 000 albums as for 1 000: nothing is
/// sorted, pages are read off `album_on_lastScanAt_id`.
public struct AlbumListingRequest: ReadRequest {
    public var sort: AlbumSort
    public var reversed: Bool
    public var query: String
    public var collection: CollectionFilter
    /// Stamped on the listing, so the grid can tell two reads of the same search apart.
    public var revision: Int

    public init(sortedBy sort: AlbumSort, reversed: Bool = false, matching query: String = "", collection: CollectionFilter = .seen, revision: Int = 0) {
        self.sort = sort
        self.reversed = reversed
        self.query = query
        self.collection = collection
        self.revision = revision
    }

    public func fetch(_ db: Database) throws -> AlbumListing {
        var listing = AlbumListing(sort: sort, reversed: reversed, query: query, collection: collection, revision: revision)
        guard let filter = AlbumListingSQL.filter(query, collection) else { return listing }  // Only punctuation: nothing matches.
        if sort == .recentlyScanned {
            listing.count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM album\(filter.sql)", arguments: filter.arguments) ?? 0
            return listing
        }
        let ids: [Int64]
        if sort == .rating {
            ids = try Self.idsByRating(db, reversed: reversed, filter: filter)
        } else {
            ids = try Int64.fetchAll(db, sql: "SELECT album.id FROM album\(filter.sql) ORDER BY \(AlbumListingSQL.order(sort, reversed: reversed))",
                                     arguments: filter.arguments)
        }
        listing.orderedIDs = ids
        listing.count = ids.count
        return listing
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
}
