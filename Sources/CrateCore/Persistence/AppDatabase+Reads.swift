import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Reads

    /// Scans newest first, each with its album.
    ///
    /// Pass the last entry of the previous page as `after` to read the next one: a keyset query
    /// costs the same at scan 50 000 as at scan 1, where OFFSET walks every row before it.
    public func history(limit: Int = 200, offset: Int = 0, after last: Scan? = nil) throws -> [HistoryEntry] {
        try reader.read { db in
            var request = Scan
                .including(required: Scan.album)
                .order(Scan.Columns.scannedAt.desc, Scan.Columns.id.desc)
                .limit(limit, offset: offset)
            if let last, let lastID = last.id {
                request = request.filter(
                    Scan.Columns.scannedAt < last.scannedAt
                        || (Scan.Columns.scannedAt == last.scannedAt && Scan.Columns.id < lastID))
            }
            return try Row.fetchAll(db, request).map { row in
                guard let albumRow = row.scopes["album"] else { throw CrateError.notFound("Album row") }
                return HistoryEntry(scan: try Scan(row: row), album: try Album(row: albumRow))
            }
        }
    }

    public func album(id: Int64) throws -> Album? {
        try reader.read { db in try Album.fetchOne(db, key: id) }
    }

    /// Tracks of an album in canonical order: disc, then position.
    public func tracks(forAlbum albumID: Int64) throws -> [Track] {
        try reader.read { db in
            try Track.filter(Track.Columns.albumID == albumID)
                .order(Track.Columns.disc, Track.Columns.position)
                .fetchAll(db)
        }
    }

    /// The runners-up saved with scan `scanID`, best first ("Not this album?"); empty when it had
    /// none or is gone.
    public func candidates(forScan scanID: Int64) throws -> [ScanCandidate] {
        try reader.read { db in try Self.fetchCandidates(forScan: scanID, in: db) }
    }

    public func review(key: String) throws -> Review? {
        try reader.read { db in try Review.fetchOne(db, key: key) }
    }

    public struct Counts: Equatable, Sendable {
        public var albums: Int
        public var scans: Int
        public var reviews: Int
    }

    public func counts() throws -> Counts {
        try reader.read { db in
            Counts(albums: try Album.fetchCount(db), scans: try Scan.fetchCount(db), reviews: try Review.fetchCount(db))
        }
    }
}
