import Foundation
import GRDB

/// A release group on the stored wall or in the ratings, as a rated album.
public struct RatedAlbumRequest: ReadRequest {
    public var releaseGroupID: MBID

    public init(releaseGroupID: MBID) {
        self.releaseGroupID = releaseGroupID
    }

    public func fetch(_ db: Database) throws -> RatedAlbum? {
        if let row = try Row.fetchOne(db, sql: "SELECT title, artist, releaseId FROM wall_item WHERE releaseGroupId = ? LIMIT 1", arguments: [releaseGroupID.rawValue])
            ?? Row.fetchOne(db, sql: "SELECT title, artist, releaseId FROM album_rating WHERE releaseGroupId = ?", arguments: [releaseGroupID.rawValue])
            ?? Row.fetchOne(db, sql: "SELECT title, artist, mbReleaseId AS releaseId FROM album WHERE mbReleaseGroupId = ? LIMIT 1", arguments: [releaseGroupID.rawValue]) {
            return RatedAlbum(releaseGroupID: releaseGroupID, title: row["title"], artist: row["artist"], releaseID: MBID(validating: row["releaseId"] as String?))
        }
        return nil
    }
}
