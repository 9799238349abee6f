import GRDB

/// How many albums each collection filter shows (all seen, owned, wanted).
public struct CollectionCountsRequest: ReadRequest {
    /// The number of albums when the caller has just counted them (nil: count them here).
    public var seen: Int?

    public init(seen: Int? = nil) {
        self.seen = seen
    }

    public func fetch(_ db: Database) throws -> CollectionCounts {
        let row = try Row.fetchOne(db, sql: """
            SELECT \(seen == nil ? "(SELECT COUNT(*) FROM album)" : "0"),
                   (SELECT COUNT(DISTINCT albumId) FROM album_copy),
                   (SELECT COUNT(*) FROM album WHERE wantedAt IS NOT NULL)
            """)
        return CollectionCounts(seen: seen ?? row?[0] ?? 0, owned: row?[1] ?? 0, wanted: row?[2] ?? 0)
    }
}
