import Foundation

/// Which albums the grid shows, in which order, without holding them: how many there are and,
/// for orders no index gives, their ids in order (8 bytes an album). The grid fetches the albums
/// themselves a page at a time as it scrolls (`AppDatabase.albumPage`).
public struct AlbumListing: Equatable, Sendable {
    public var sort: AlbumSort
    public var reversed: Bool
    /// The search text; empty lists the whole crate.
    public var query: String
    /// Every album, or the owned or wanted ones.
    public var collection: CollectionFilter
    /// Albums listed (the search's matches while searching).
    public var count: Int
    /// The ids in grid order when the order has no index (artist, title, year, rating); nil when
    /// pages are read straight off the last-scan index by position.
    public var orderedIDs: [Int64]?
    /// Bumped by every reload, so a grid can tell that its cached pages may be stale.
    public var revision: Int

    public init(sort: AlbumSort = .recentlyScanned, reversed: Bool = false, query: String = "", collection: CollectionFilter = .seen, count: Int = 0,
                orderedIDs: [Int64]? = nil, revision: Int = 0) {
        self.sort = sort
        self.reversed = reversed
        self.query = query
        self.collection = collection
        self.count = count
        self.orderedIDs = orderedIDs
        self.revision = revision
    }

    /// True when `other` lists by the same order and search (a refresh, not a new list).
    public func isSameList(as other: AlbumListing) -> Bool {
        sort == other.sort && reversed == other.reversed && query == other.query && collection == other.collection
    }
}
