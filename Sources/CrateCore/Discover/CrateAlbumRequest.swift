import GRDB

/// The crate album of a release group (nil when the group is not in the crate): a wall album
/// that is in the crate opens as the crate's own.
public struct CrateAlbumRequest: ReadRequest {
    public var releaseGroupID: MBID

    public init(releaseGroupID: MBID) {
        self.releaseGroupID = releaseGroupID
    }

    public func fetch(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE mbReleaseGroupId = ? ORDER BY id LIMIT 1", arguments: [releaseGroupID.rawValue])
    }
}
