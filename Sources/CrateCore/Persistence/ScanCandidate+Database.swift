import Foundation
import GRDB

/// One row of `scan_candidate`: a runner-up of scan `scanID` at position `rank` (0 = best).
///
/// The album's fields are copied into the row rather than saved as an `album`: a candidate is not
/// in the crate (not in the grid, the search or the history) until the user picks it.
struct ScanCandidateRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "scan_candidate"

    enum Columns {
        static let scanID = Column("scanId")
        static let rank = Column("rank")
        static let mbReleaseID = Column("mbReleaseId")
        static let mbReleaseGroupID = Column("mbReleaseGroupId")
        static let title = Column("title")
        static let artist = Column("artist")
        static let year = Column("year")
        static let label = Column("label")
        static let score = Column("score")
    }

    var scanID: Int64
    var rank: Int
    var candidate: ScanCandidate
}

// In an extension, so the memberwise initializer stays.
extension ScanCandidateRow {
    init(row: Row) throws {
        scanID = row[Columns.scanID]
        rank = row[Columns.rank]
        let album = Album(
            musicBrainzReleaseID: row[Columns.mbReleaseID],
            musicBrainzReleaseGroupID: row[Columns.mbReleaseGroupID],
            title: row[Columns.title],
            artist: row[Columns.artist],
            year: row[Columns.year],
            label: row[Columns.label])
        candidate = ScanCandidate(album: album, score: row[Columns.score])
    }

    func encode(to container: inout PersistenceContainer) throws {
        let album = candidate.album
        container[Columns.scanID] = scanID
        container[Columns.rank] = rank
        container[Columns.mbReleaseID] = album.musicBrainzReleaseID
        container[Columns.mbReleaseGroupID] = album.musicBrainzReleaseGroupID
        container[Columns.title] = album.title
        container[Columns.artist] = album.artist
        container[Columns.year] = album.year
        container[Columns.label] = album.label
        container[Columns.score] = candidate.score
    }
}
