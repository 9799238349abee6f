import GRDB

/// Every rated release group and its rating (hearts and ✕s).
public struct AlbumRatingsRequest: ReadRequest {
    public init() {}

    public func fetch(_ db: Database) throws -> [MBID: AlbumRating] {
        var ratings: [MBID: AlbumRating] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT releaseGroupId, rating FROM album_rating") {
            if let id = MBID(validating: row["releaseGroupId"] as String), let rating = AlbumRating(rawValue: row["rating"]) {
                ratings[id] = rating
            }
        }
        return ratings
    }
}
