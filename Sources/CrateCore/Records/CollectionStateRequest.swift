import GRDB

/// An album's copies (oldest first) and whether it is wanted.
public struct CollectionStateRequest: ReadRequest {
    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> CollectionState {
        try AppDatabase.fetchCollectionState(albumID: albumID, in: db)
    }
}
