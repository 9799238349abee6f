import Foundation

/// The library's cover hashes, loaded once and kept in memory for tier 0.
///
/// Reading every hash from SQLite on every scan would cost more than the match itself once the
/// crate is large; new covers are appended as their artwork arrives.
public actor CoverHashIndex {
    private let database: AppDatabase
    private var table: CoverTable?

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Every stored cover, as the matcher's flat table (loaded from the database once).
    public func all() throws -> CoverTable {
        if let table { return table }
        let loaded = CoverTable(try database.allCoverHashes())
        table = loaded
        return loaded
    }

    public func add(_ hash: CoverHash, albumID: Int64) {
        table?.upsert(StoredCover(albumID: albumID, hash: hash))
    }
}
