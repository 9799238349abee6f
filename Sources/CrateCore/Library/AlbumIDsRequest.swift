import GRDB

/// Ids `offset ..< offset + limit` of a listing (what plays after an album tapped in the grid).
public struct AlbumIDsRequest: ReadRequest {
    public var listing: AlbumListing
    public var offset: Int
    public var limit: Int

    public init(of listing: AlbumListing, offset: Int, limit: Int) {
        self.listing = listing
        self.offset = offset
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [Int64] {
        guard offset >= 0, limit > 0 else { return [] }
        if let ordered = listing.orderedIDs {
            guard offset < ordered.count else { return [] }
            return Array(ordered[offset..<min(ordered.count, offset + limit)])
        }
        guard let filter = AlbumListingSQL.filter(listing.query, listing.collection) else { return [] }
        return try Int64.fetchAll(db, sql: "SELECT album.id FROM album\(filter.sql) ORDER BY \(AlbumListingSQL.order(listing.sort, reversed: listing.reversed)) LIMIT ? OFFSET ?",
                                  arguments: filter.arguments + [limit, offset])
    }
}
