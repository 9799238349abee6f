import Foundation
import GRDB

extension AppDatabase {
    // MARK: - The read entry points

    /// Answers `request` in one read transaction (the caller's thread: stores call it off the main actor).
    public func read<Request: ReadRequest>(_ request: Request) throws -> Request.Value {
        try reader.read { try request.fetch($0) }
    }

    /// Several requests (or any read) in one transaction, so they see one snapshot.
    public func read<Value>(_ body: (Database) throws -> Value) throws -> Value {
        try reader.read(body)
    }

    // MARK: - Reads the scan pipeline and the CLI still ask by name

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
