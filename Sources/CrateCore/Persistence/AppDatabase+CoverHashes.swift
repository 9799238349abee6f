import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Cover hashes

    /// Stores (or replaces) the hashes of an album's artwork.
    public func saveCoverHash(_ hash: CoverHash, forAlbum albumID: Int64) throws {
        try checkWritable()
        try writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO cover_hash (albumId, phash, dhash, dct256) VALUES (?, ?, ?, ?)",
                arguments: [albumID, Int64(bitPattern: hash.pHash), Int64(bitPattern: hash.dHash), Data(hash.dct256.bytes)])
        }
    }

    /// The hashes of one album's artwork, or nil.
    public func coverHash(forAlbum albumID: Int64) throws -> CoverHash? {
        try reader.read { db in
            try Row.fetchOne(db, sql: "SELECT phash, dhash, dct256 FROM cover_hash WHERE albumId = ?", arguments: [albumID])
                .flatMap(Self.coverHash(from:))
        }
    }

    /// Every stored cover, for the tier-0 matcher. Rows with a damaged blob are skipped.
    public func allCoverHashes() throws -> [StoredCover] {
        try reader.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT albumId, phash, dhash, dct256 FROM cover_hash ORDER BY albumId")
            var covers: [StoredCover] = []
            while let row = try rows.next() {
                guard let hash = Self.coverHash(from: row) else {
                    Log.error("cover_hash row for album \(row["albumId"] as Int64? ?? -1) is damaged; skipped")
                    continue
                }
                covers.append(StoredCover(albumID: row["albumId"], hash: hash))
            }
            return covers
        }
    }

    // MARK: - Private

    private static func coverHash(from row: Row) -> CoverHash? {
        guard let phash: Int64 = row["phash"], let dhash: Int64 = row["dhash"], let blob: Data = row["dct256"],
              let dct = Hash256(bytes: [UInt8](blob)) else { return nil }
        return CoverHash(pHash: UInt64(bitPattern: phash), dHash: UInt64(bitPattern: dhash), dct256: dct)
    }
}
