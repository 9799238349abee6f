import Foundation

/// The library's cover hashes, loaded once and kept in memory for tier 0.
///
/// Reading every hash from SQLite on every scan would cost more than the match itself once the
/// crate is large; new covers are appended as their artwork arrives.
public actor CoverHashIndex {
    private let database: AppDatabase
    private var covers: [StoredCover]?

    public init(database: AppDatabase) {
        self.database = database
    }

    public func all() throws -> [StoredCover] {
        if let covers { return covers }
        let loaded = try database.allCoverHashes()
        covers = loaded
        return loaded
    }

    public func add(_ hash: CoverHash, albumID: Int64) {
        covers?.removeAll { $0.albumID == albumID }
        covers?.append(StoredCover(albumID: albumID, hash: hash))
    }
}
