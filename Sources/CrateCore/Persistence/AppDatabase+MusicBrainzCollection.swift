import Foundation
import GRDB

/// The ledger of a MusicBrainz collection sync (docs/decisions/0047-musicbrainz-collection-sync.md):
/// the releases that were both owned here and in the collection at the last sync, and the
/// removals the user confirmed. Every change a sync makes here is one transaction with its
/// ledger row, so a sync killed anywhere resumes by running again: nothing owned twice, nothing lost.
extension AppDatabase {
    static func createMusicBrainzCollectionLedger(_ db: Database) throws {
        try db.create(table: "mb_collection_ledger") { t in
            t.column("collectionId", .text).notNull()
            t.column("releaseId", .text).notNull()
            // Set when the user removed the record here and said to remove it there too.
            t.column("removalConfirmedAt", .datetime)
            t.primaryKey(["collectionId", "releaseId"])
        }
        // When each collection was last synced whole (the window syncs at most every few hours).
        try db.create(table: "mb_collection_sync") { t in
            t.primaryKey("collectionId", .text)
            t.column("syncedAt", .datetime).notNull()
        }
    }

    /// When `collection` was last synced (nil: never, here).
    public func collectionSyncedAt(_ collection: String) throws -> Date? {
        try reader.read { db in
            try Date.fetchOne(db, sql: "SELECT syncedAt FROM mb_collection_sync WHERE collectionId = ?", arguments: [collection])
        }
    }

    public func recordCollectionSync(_ collection: String, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "INSERT OR REPLACE INTO mb_collection_sync (collectionId, syncedAt) VALUES (?, ?)", arguments: [collection, date])
        }
    }

    /// The MusicBrainz releases owned here: each copy's release, or its album's when the copy
    /// names none. Copies of albums with no release cannot be in a collection.
    public func ownedReleaseIDs() throws -> Set<String> {
        try reader.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT lower(COALESCE(c.releaseId, a.mbReleaseId)) FROM album_copy c JOIN album a ON a.id = c.albumId
                WHERE COALESCE(c.releaseId, a.mbReleaseId) IS NOT NULL
                """))
        }
    }

    /// The ledger of `collection`: the last sync's base and the confirmed removals.
    public func collectionLedger(_ collection: String) throws -> (base: Set<String>, confirmed: Set<String>) {
        try reader.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT releaseId, removalConfirmedAt FROM mb_collection_ledger WHERE collectionId = ?",
                                        arguments: [collection])
            let base = Set(rows.map { $0["releaseId"] as String })
            let confirmed = Set(rows.filter { ($0["removalConfirmedAt"] as Date?) != nil }.map { $0["releaseId"] as String })
            return (base, confirmed)
        }
    }

    /// Records releases now in both places (after a PUT, or found in both).
    public func recordInCollection(_ collection: String, releases: [String]) throws {
        guard !releases.isEmpty else { return }
        try checkWritable()
        try guardedWrite { db in
            for release in releases {
                try db.execute(sql: "INSERT OR IGNORE INTO mb_collection_ledger (collectionId, releaseId) VALUES (?, ?)",
                               arguments: [collection, release.lowercased()])
            }
        }
    }

    /// Drops releases from the ledger (after a DELETE, or gone from both).
    public func forgetInCollection(_ collection: String, releases: [String]) throws {
        guard !releases.isEmpty else { return }
        try checkWritable()
        try guardedWrite { db in
            for release in releases {
                try db.execute(sql: "DELETE FROM mb_collection_ledger WHERE collectionId = ? AND releaseId = ?",
                               arguments: [collection, release.lowercased()])
            }
        }
    }

    /// The user said: remove these (no longer owned here) from the collection too.
    public func confirmCollectionRemovals(_ collection: String, releases: [String], at date: Date = Date()) throws {
        guard !releases.isEmpty else { return }
        try checkWritable()
        try guardedWrite { db in
            for release in releases {
                try db.execute(sql: "UPDATE mb_collection_ledger SET removalConfirmedAt = ? WHERE collectionId = ? AND releaseId = ?",
                               arguments: [date, collection, release.lowercased()])
            }
        }
    }

    /// A release new in the collection becomes an owned copy here, in one transaction with its
    /// ledger row: the album is reused when the crate has it (same release or release group),
    /// and a copy of this release is added only when there is none. Returns the album's id.
    @discardableResult
    public func ownFromCollection(_ details: ReleaseDetails, collection: String, at date: Date = Date()) throws -> Int64 {
        try checkWritable()
        return try guardedWrite { db in
            let release = details.album.musicBrainzReleaseID?.lowercased() ?? ""
            let albumID = try Self.addToCrate(details.album, tracks: details.tracks, facts: details.facts, in: db)
            let owned = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM album_copy c JOIN album a ON a.id = c.albumId
                               WHERE lower(COALESCE(c.releaseId, a.mbReleaseId)) = ?)
                """, arguments: [release]) ?? false
            if !owned {
                var row = OwnedCopyRow(OwnedCopy(albumID: albumID, format: details.facts.formatSummary, releaseID: release, addedAt: date))
                try row.insert(db)
            }
            try db.execute(sql: "INSERT OR IGNORE INTO mb_collection_ledger (collectionId, releaseId) VALUES (?, ?)", arguments: [collection, release])
            return albumID
        }
    }

    /// A release removed from the collection elsewhere is no longer owned here: its copies go
    /// (the album stays in the crate, seen), with its ledger row, in one transaction. Returns
    /// how many copies went.
    @discardableResult
    public func disownRemovedElsewhere(_ release: String, collection: String) throws -> Int {
        try checkWritable()
        return try guardedWrite { db in
            let release = release.lowercased()
            try db.execute(sql: """
                DELETE FROM album_copy WHERE id IN (SELECT c.id FROM album_copy c JOIN album a ON a.id = c.albumId
                                                    WHERE lower(COALESCE(c.releaseId, a.mbReleaseId)) = ?)
                """, arguments: [release])
            let removed = db.changesCount
            try db.execute(sql: "DELETE FROM mb_collection_ledger WHERE collectionId = ? AND releaseId = ?", arguments: [collection, release])
            return removed
        }
    }
}
