import Foundation
import GRDB

/// Favourited albums, newest first.
public struct FavouriteAlbumsRequest: ReadRequest {
    public var limit: Int

    public init(limit: Int = 200) {
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [RatedAlbum] {
        try Row.fetchAll(db, sql: "SELECT * FROM album_rating WHERE rating = 1 ORDER BY ratedAt DESC LIMIT ?", arguments: [limit]).compactMap { row in
            MBID(validating: row["releaseGroupId"] as String).map {
                RatedAlbum(releaseGroupID: $0, title: row["title"], artist: row["artist"], releaseID: MBID(validating: row["releaseId"] as String?))
            }
        }
    }
}
