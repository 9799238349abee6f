import Foundation
import GRDB

/// Stored release facts: one `release_facts` row per album once its release was looked up.
extension AppDatabase {
    /// `ReleaseFactsRequest`, by name for the scan pipeline (which moves to the request later).
    public func releaseFacts(albumID: Int64) throws -> ReleaseFacts? {
        try read(ReleaseFactsRequest(albumID: albumID))
    }

    /// Albums whose stored release facts carry `barcode` (any spelling: a 12-digit UPC finds its
    /// 13-digit EAN and back), most recently added first.
    public func albums(withBarcode barcode: String) throws -> [Album] {
        guard let key = Barcode.lookupKey(barcode) else { return [] }
        return try reader.read { db in
            try Album.fetchAll(db, sql: """
                SELECT album.* FROM album JOIN release_facts f ON f.albumId = album.id
                WHERE f.barcodeKey = ? ORDER BY album.id DESC
                """, arguments: [key])
        }
    }

    /// Albums with a release id whose facts were never looked up (libraries from before release
    /// facts, or a lookup a kill interrupted), oldest first, leaving out `skipping`.
    public func albumsAwaitingReleaseFacts(limit: Int, skipping: Set<Int64> = []) throws -> [Album] {
        try reader.read { db in
            let skipped = skipping.isEmpty ? "" : "AND album.id NOT IN (\(skipping.map { _ in "?" }.joined(separator: ",")))"
            return try Album.fetchAll(db, sql: """
                SELECT album.* FROM album LEFT JOIN release_facts f ON f.albumId = album.id
                WHERE album.mbReleaseId IS NOT NULL AND f.albumId IS NULL \(skipped)
                ORDER BY album.id LIMIT ?
                """, arguments: StatementArguments(Array(skipping)) + [limit])
        }
    }

    /// How many albums still wait for their release facts.
    public func countAlbumsAwaitingReleaseFacts() throws -> Int {
        try reader.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM album LEFT JOIN release_facts f ON f.albumId = album.id
                WHERE album.mbReleaseId IS NOT NULL AND f.albumId IS NULL
                """) ?? 0
        }
    }

    /// The release is gone from MusicBrainz (its lookup answered 404): nothing more to look up.
    public func markReleaseFactsMissing(albumID: Int64, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            guard let releaseID = try String.fetchOne(db, sql: "SELECT mbReleaseId FROM album WHERE id = ?", arguments: [albumID]) else { return }
            var row = ReleaseFactsRow(albumID: albumID, facts: ReleaseFacts(releaseID: releaseID), fetchedAt: date)
            row.missing = true
            try row.save(db)
        }
    }

    static func fetchFacts(albumID: Int64, in db: Database) throws -> ReleaseFacts? {
        guard let row = try ReleaseFactsRow.fetchOne(db, key: albumID), !row.missing else { return nil }
        return row.facts
    }

    /// Stores `facts` for `albumID` (replacing earlier ones), inside the caller's transaction.
    static func storeFacts(_ facts: ReleaseFacts, albumID: Int64, at date: Date = Date(), in db: Database) throws {
        try ReleaseFactsRow(albumID: albumID, facts: facts, fetchedAt: date).save(db)
    }
}

/// A `release_facts` row.
struct ReleaseFactsRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "release_facts"

    var albumId: Int64
    var releaseId: String?
    var barcode: String?
    var barcodeKey: String?
    var catalogNumbers: String
    var labels: String
    var country: String?
    var date: String?
    var packaging: String?
    var status: String?
    var media: String
    var missing: Bool
    var fetchedAt: Date

    init(albumID: Int64, facts: ReleaseFacts, fetchedAt: Date) {
        albumId = albumID
        releaseId = facts.releaseID
        barcode = facts.barcode
        barcodeKey = facts.barcode.flatMap(Barcode.lookupKey)
        catalogNumbers = JSONList.encode(facts.catalogNumbers)
        labels = JSONList.encode(facts.labels)
        country = facts.country
        date = facts.date
        packaging = facts.packaging
        status = facts.status
        media = (try? JSONEncoder().encode(facts.media)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        missing = false
        self.fetchedAt = fetchedAt
    }

    var facts: ReleaseFacts {
        ReleaseFacts(releaseID: releaseId, barcode: barcode, catalogNumbers: JSONList.decode(catalogNumbers), labels: JSONList.decode(labels),
                     country: country, date: date, packaging: packaging, status: status,
                     // A damaged list reads as no media rather than failing the album.
                     media: (try? JSONDecoder().decode([ReleaseMedium].self, from: Data(media.utf8))) ?? [])
    }
}
