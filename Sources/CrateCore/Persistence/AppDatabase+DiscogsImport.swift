import Foundation
import GRDB

/// The persisted Discogs import (docs/decisions/0045-discogs-import.md): records are staged in
/// one transaction, then matched batch by batch, each batch's outcome written in one transaction
/// with the albums and copies it makes. One process at a time holds the import's lease.
extension AppDatabase {
    static func createDiscogsImport(_ db: Database) throws {
        try db.create(table: "discogs_import_job") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("source", .text).notNull()  // csv | api
            t.column("name", .text).notNull()    // the file's name or the Discogs user
            t.column("createdAt", .datetime).notNull()
            t.column("staged", .integer).notNull()
            t.column("skipped", .integer).notNull()
        }
        try db.create(table: "discogs_import_item") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("jobId", .integer).notNull().indexed().references("discogs_import_job", onDelete: .cascade)
            t.column("list", .text).notNull()
            t.column("releaseId", .integer).notNull()
            t.column("copyIndex", .integer).notNull()
            t.column("artist", .text).notNull()
            t.column("title", .text).notNull()
            t.column("label", .text)
            t.column("catalogNumber", .text)
            t.column("format", .text)
            t.column("year", .text)
            t.column("barcode", .text)
            t.column("note", .text)
            t.column("addedAt", .datetime)
            t.column("state", .text).notNull().defaults(to: "pending")  // pending | done | discogsOnly
            // The next search to try: 0 barcode, 1 catalogue number, 2 artist + title, 3 one by one.
            t.column("stage", .integer).notNull()
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("mbReleaseId", .text)
            t.column("albumId", .integer).references("album", onDelete: .setNull)
            t.column("copyId", .integer)
            t.column("updatedAt", .datetime)
            // The idempotence key: the same record imported again (same file, same API
            // collection, or the other of the two) adds nothing.
            t.uniqueKey(["list", "releaseId", "copyIndex"])
        }
        try db.create(index: "discogs_import_item_state", on: "discogs_import_item", columns: ["state", "stage", "id"])
        try db.create(table: "discogs_import_lease") { t in
            t.primaryKey("id", .integer)
            t.column("owner", .text)
            t.column("expiresAt", .double).notNull()
        }
    }

    // MARK: - Staging

    /// Stages `items` in one transaction: the ones never imported become pending rows of a new
    /// job; the others (same list, release and copy) are skipped. Returns the job.
    @discardableResult
    public func stageDiscogsImport(_ items: [DiscogsImportItem], source: String, name: String, at date: Date = Date()) throws -> DiscogsImportJob {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: "INSERT INTO discogs_import_job (source, name, createdAt, staged, skipped) VALUES (?, ?, ?, 0, 0)",
                           arguments: [source, String(name.prefix(200)), date])
            let jobID = db.lastInsertedRowID
            let statement = try db.makeStatement(sql: """
                INSERT OR IGNORE INTO discogs_import_item (jobId, list, releaseId, copyIndex, artist, title, label, catalogNumber, format,
                    year, barcode, note, addedAt, stage, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var staged = 0
            for item in items {
                let stage = item.barcode.flatMap(Barcode.init) != nil ? 0 : (item.catalogNumber != nil ? 1 : 2)
                try statement.execute(arguments: [jobID, item.list.rawValue, item.releaseID, item.copyIndex, String(item.artist.prefix(500)),
                                                  String(item.title.prefix(500)), item.label.map { String($0.prefix(500)) },
                                                  item.catalogNumber.map { String($0.prefix(100)) }, item.format.map { String($0.prefix(200)) },
                                                  item.year, item.barcode, item.note, item.addedAt, stage, date])
                staged += db.changesCount
            }
            // A run that staged nothing new (the same file again, a resume) leaves no job behind.
            guard staged > 0 else {
                try db.execute(sql: "DELETE FROM discogs_import_job WHERE id = ?", arguments: [jobID])
                return DiscogsImportJob(id: 0, staged: 0, skipped: items.count)
            }
            try db.execute(sql: "UPDATE discogs_import_job SET staged = ?, skipped = ? WHERE id = ?", arguments: [staged, items.count - staged, jobID])
            return DiscogsImportJob(id: jobID, staged: staged, skipped: items.count - staged)
        }
    }

    /// What staging `items` would do, without writing (`--dry-run`): how many are new.
    public func previewDiscogsImport(_ items: [DiscogsImportItem]) throws -> DiscogsImportJob {
        try reader.read { db in
            let statement = try db.makeStatement(sql: "SELECT 1 FROM discogs_import_item WHERE list = ? AND releaseId = ? AND copyIndex = ?")
            var seen = Set<String>(), new = 0
            for item in items where seen.insert("\(item.list.rawValue) \(item.releaseID) \(item.copyIndex)").inserted {
                if try Int.fetchOne(statement, arguments: [item.list.rawValue, item.releaseID, item.copyIndex]) == nil { new += 1 }
            }
            return DiscogsImportJob(id: 0, staged: new, skipped: items.count - new)
        }
    }

    // MARK: - The lease

    /// Takes (or renews) the import's lease for `owner` until `now + duration`; false when another
    /// live process holds it.
    public func claimDiscogsImport(owner: BatchLeaseOwner, now: Date = Date(), duration: TimeInterval = 120) throws -> Bool {
        try checkWritable()
        return try guardedWrite { db in try Self.claimDiscogsImport(owner: owner, now: now, duration: duration, in: db) }
    }

    static func claimDiscogsImport(owner: BatchLeaseOwner, now: Date, duration: TimeInterval, in db: Database) throws -> Bool {
        try db.execute(sql: "INSERT OR IGNORE INTO discogs_import_lease (id, owner, expiresAt) VALUES (1, NULL, 0)")
        let time = now.timeIntervalSince1970
        try db.execute(sql: """
            UPDATE discogs_import_lease SET owner = ?, expiresAt = ?
            WHERE id = 1 AND (owner IS NULL OR owner = ? OR expiresAt <= ? OR crate_lease_gone(owner))
            """, arguments: [owner.stored, time + duration, owner.stored, time])
        return db.changesCount == 1
    }

    public func releaseDiscogsImport(owner: BatchLeaseOwner) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE discogs_import_lease SET owner = NULL, expiresAt = 0 WHERE id = 1 AND owner = ?", arguments: [owner.stored])
        }
    }

    // MARK: - Reads

    /// The pending rows of the earliest stage any row is at, at most `limit`, oldest first.
    func nextDiscogsImportBatch(limits: (Int) -> Int) throws -> (stage: Int, items: [DiscogsStagedItem]) {
        try reader.read { db in
            guard let stage = try Int.fetchOne(db, sql: "SELECT MIN(stage) FROM discogs_import_item WHERE state = 'pending'") else { return (0, []) }
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM discogs_import_item WHERE state = 'pending' AND stage = ? ORDER BY id LIMIT ?",
                                        arguments: [stage, limits(stage)])
            return (stage, rows.map(DiscogsStagedItem.init))
        }
    }

    /// Rows by state, and the pending ones by stage. `current`: only the import under way — the
    /// jobs from the oldest with a pending row on (else the latest job), so a progress bar counts
    /// this import's records, not every import's.
    public func discogsImportCounts(current: Bool = false) throws -> DiscogsImportCounts {
        try reader.read { db in
            var counts = DiscogsImportCounts()
            let scope = current ? """
                WHERE jobId >= COALESCE((SELECT MIN(jobId) FROM discogs_import_item WHERE state = 'pending'), (SELECT MAX(id) FROM discogs_import_job), 0)
                """ : ""
            for row in try Row.fetchAll(db, sql: "SELECT state, stage, COUNT(*) AS n FROM discogs_import_item \(scope) GROUP BY state, stage") {
                let n: Int = row["n"], state: String = row["state"], stage: Int = row["stage"]
                switch state {
                case "done": counts.matched += n
                case "discogsOnly": counts.discogsOnly += n
                default: counts.pendingByStage[stage, default: 0] += n
                }
            }
            return counts
        }
    }

    /// The "Discogs only" records (no MusicBrainz match yet), those whose artist, title, label
    /// or catalogue number contain `search` when given; by artist.
    public func discogsOnlyItems(search: String? = nil, limit: Int = 1000) throws -> [DiscogsOnlyEntry] {
        try reader.read { db in
            var sql = "SELECT * FROM discogs_import_item WHERE state = 'discogsOnly'"
            var arguments: StatementArguments = []
            if let search = search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
                let pattern = "%" + search.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_") + "%"
                sql += " AND (artist LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\' OR label LIKE ? ESCAPE '\\' OR catalogNumber LIKE ? ESCAPE '\\')"
                arguments += [pattern, pattern, pattern, pattern]
            }
            sql += " ORDER BY artist COLLATE NOCASE, title COLLATE NOCASE, id LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { DiscogsOnlyEntry(DiscogsStagedItem($0)) }
        }
    }

    /// Puts the "Discogs only" records back in the queue (`crate repair`): their searches run
    /// again from the catalogue number. Returns how many.
    @discardableResult
    public func requeueDiscogsOnly(at date: Date = Date()) throws -> Int {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: """
                UPDATE discogs_import_item SET state = 'pending', stage = CASE WHEN catalogNumber IS NULL THEN 2 ELSE 1 END,
                    attempts = attempts + 1, updatedAt = ? WHERE state = 'discogsOnly'
                """, arguments: [date])
            return db.changesCount
        }
    }
}

/// A staged import: the new rows, and the ones skipped as imported before.
public struct DiscogsImportJob: Equatable, Sendable {
    public var id: Int64
    public var staged: Int
    public var skipped: Int
}

/// Where the import stands.
public struct DiscogsImportCounts: Equatable, Sendable {
    public var matched = 0
    public var discogsOnly = 0
    public var pendingByStage: [Int: Int] = [:]

    public init() {}
    public var pending: Int { pendingByStage.values.reduce(0, +) }
    public var total: Int { matched + discogsOnly + pending }
}

/// One staged row.
struct DiscogsStagedItem: Sendable {
    var id: Int64
    var item: DiscogsImportItem
    var stage: Int
    var albumID: Int64?

    init(_ row: Row) {
        id = row["id"]
        stage = row["stage"]
        albumID = row["albumId"]
        item = DiscogsImportItem(list: DiscogsList(rawValue: row["list"]) ?? .collection, releaseID: row["releaseId"], copyIndex: row["copyIndex"],
                                 artist: row["artist"], title: row["title"], label: row["label"], catalogNumber: row["catalogNumber"],
                                 format: row["format"], year: row["year"], barcode: row["barcode"], note: row["note"], addedAt: row["addedAt"])
    }
}

/// A record kept from Discogs with no MusicBrainz match (yet).
public struct DiscogsOnlyEntry: Equatable, Sendable {
    public var item: DiscogsImportItem
    /// The album it is kept as (owned or wanted, without a MusicBrainz release).
    public var albumID: Int64?

    init(_ staged: DiscogsStagedItem) {
        item = staged.item
        albumID = staged.albumID
    }
}
