import Foundation
import GRDB

/// The recordings of the crate's album of this release group, when its track list is here.
public struct CrateRecordingsRequest: ReadRequest {
    public var releaseGroupID: MBID

    public init(releaseGroupID: MBID) {
        self.releaseGroupID = releaseGroupID
    }

    public func fetch(_ db: Database) throws -> [MBID] {
        try String.fetchAll(db, sql: """
            SELECT t.recordingId FROM track t JOIN album a ON a.id = t.albumId
            WHERE a.mbReleaseGroupId = ? AND t.recordingId IS NOT NULL
              AND a.id = (SELECT id FROM album WHERE mbReleaseGroupId = ? AND tracksStatus = 'ok' ORDER BY id LIMIT 1)
            ORDER BY t.disc, t.position
            """, arguments: [releaseGroupID.rawValue, releaseGroupID.rawValue]).compactMap(MBID.init(validating:))
    }
}
