import Foundation
import GRDB

/// Albums of the crate with a release group: favourites first, then the most scanned, then
/// the most recently scanned.
public struct CrateAlbumsForWallRequest: ReadRequest {
    public var limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func fetch(_ db: Database) throws -> [WallItem] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT a.mbReleaseGroupId AS rg, a.mbReleaseId AS rel, a.title, a.artist,
                   COUNT(s.id) AS scans, MAX(s.scannedAt) AS last,
                   EXISTS (SELECT 1 FROM album_rating r WHERE r.releaseGroupId = a.mbReleaseGroupId AND r.rating = 1) AS fav
            FROM album a LEFT JOIN scan s ON s.albumId = a.id
            WHERE a.mbReleaseGroupId IS NOT NULL
            GROUP BY a.id
            ORDER BY fav DESC, scans DESC, last DESC
            LIMIT ?
            """, arguments: [limit])
        var items = rows.compactMap { row -> WallItem? in
            guard let group = MBID(validating: row["rg"] as String?) else { return nil }
            return WallItem(signal: .listeningHistory, releaseGroupID: group, title: row["title"], artist: row["artist"],
                            releaseID: MBID(validating: row["rel"] as String?))
        }
        // Favourited albums that are not in the crate (hearted on the wall) count too.
        let known = Set(items.map(\.releaseGroupID))
        for row in try Row.fetchAll(db, sql: "SELECT * FROM album_rating WHERE rating = 1 ORDER BY ratedAt DESC LIMIT ?", arguments: [limit]) {
            guard let group = MBID(validating: row["releaseGroupId"] as String), !known.contains(group) else { continue }
            items.insert(WallItem(signal: .listeningHistory, releaseGroupID: group, title: row["title"], artist: row["artist"],
                                  releaseID: MBID(validating: row["releaseId"] as String?)), at: 0)
        }
        return Array(items.prefix(limit))
    }
}
