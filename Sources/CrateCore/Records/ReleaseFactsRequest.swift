import GRDB

/// The album's release facts; nil while they are still to look up (or the album has no release).
public struct ReleaseFactsRequest: ReadRequest {
    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> ReleaseFacts? {
        try AppDatabase.fetchFacts(albumID: albumID, in: db)
    }
}
