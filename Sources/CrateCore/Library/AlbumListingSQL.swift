import GRDB

/// The SQL the grid's requests share: which albums a search and filter keep, and their order.
enum AlbumListingSQL {
    /// The WHERE clause of a search within the owned, wanted or all albums (empty for none); nil
    /// when the text can match nothing.
    static func filter(_ query: String, _ collection: CollectionFilter) -> (sql: String, arguments: StatementArguments)? {
        let owned = collection == .seen ? "" : AppDatabase.condition(collection)
        if let pattern = FTS5Pattern(matchingAllPrefixesIn: query) {
            return (" WHERE album.id IN (SELECT rowid FROM album_fts WHERE album_fts MATCH ?)\(owned.isEmpty ? "" : " AND \(owned)")", [pattern])
        }
        guard query.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return (owned.isEmpty ? "" : " WHERE \(owned)", [])
    }

    /// ORDER BY terms for the grid (titles and artists in natural order).
    static func order(_ sort: AlbumSort, reversed: Bool) -> String {
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
}
