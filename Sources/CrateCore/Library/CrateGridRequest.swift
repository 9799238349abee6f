import GRDB

/// What the crate grid reads after every change, in one snapshot: the listing, its first page
/// and the collection counts (so the count above the grid always matches the albums shown).
public struct CrateGridRequest: ReadRequest {
    public struct Answer: Equatable, Sendable {
        public var listing: AlbumListing
        public var albums: [AlbumSummary]
        public var counts: CollectionCounts
    }

    public var listing: AlbumListingRequest
    public var pageSize: Int

    public init(listing: AlbumListingRequest, pageSize: Int) {
        self.listing = listing
        self.pageSize = pageSize
    }

    public func fetch(_ db: Database) throws -> Answer {
        let found = try listing.fetch(db)
        let albums = try AlbumPageRequest(of: found, offset: 0, limit: pageSize).fetch(db)
        // The whole crate's count is the listing's own when nothing is filtered out.
        let seen = listing.query.isEmpty && listing.collection == .seen ? found.count : nil
        return Answer(listing: found, albums: albums, counts: try CollectionCountsRequest(seen: seen).fetch(db))
    }
}
