import GRDB

/// The crate's albums under a collection filter (owned, wanted, all), newest first.
public struct CollectionAlbumsRequest: ReadRequest {
    public var filter: CollectionFilter
    public var limit: Int

    public init(_ filter: CollectionFilter, limit: Int = .max) {
        self.filter = filter
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [Album] {
        try Album.fetchAll(db, sql: "SELECT * FROM album WHERE \(AppDatabase.condition(filter)) ORDER BY id DESC LIMIT ?", arguments: [limit])
    }
}
