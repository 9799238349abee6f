import Foundation
import GRDB

/// The thumbnail (a stored path, as `Album.thumbnailPath`) of a crate album of this release
/// group whose artwork is in the cache; nil when there is none.
public struct CrateThumbnailRequest: ReadRequest {
    public var releaseGroupID: MBID

    public init(releaseGroupID: MBID) {
        self.releaseGroupID = releaseGroupID
    }

    public func fetch(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: """
            SELECT thumbnailPath FROM album WHERE mbReleaseGroupId = ? AND artworkStatus = ? AND thumbnailPath IS NOT NULL
            ORDER BY id LIMIT 1
            """, arguments: [releaseGroupID.rawValue, ArtworkStatus.available.rawValue])
    }
}
