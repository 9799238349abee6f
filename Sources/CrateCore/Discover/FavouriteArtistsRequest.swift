import Foundation
import GRDB

/// Favourited albums (newest first) with their artists: nil when not looked up yet, empty
/// when the album has none.
public struct FavouriteArtistsRequest: ReadRequest {
    public var limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [(releaseGroup: MBID, artists: [MBID]?)] {
        try Row.fetchAll(db, sql: "SELECT releaseGroupId, artistMbids FROM album_rating WHERE rating = 1 ORDER BY ratedAt DESC LIMIT ?", arguments: [limit])
            .compactMap { row -> (releaseGroup: MBID, artists: [MBID]?)? in
                guard let group = MBID(validating: row["releaseGroupId"] as String) else { return nil }
                let artists = (row["artistMbids"] as String?).map { $0.split(separator: " ").compactMap { MBID(validating: String($0)) } }
                return (group, artists)
            }
    }
}
