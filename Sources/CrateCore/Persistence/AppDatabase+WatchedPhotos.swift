import Foundation
import GRDB

/// Watched photo folders (docs/decisions/0041-watched-photo-folder.md): each folder's mark (files
/// changed before it are old), and each photo taken from one, by content hash, with its queue item.
extension AppDatabase {
    /// `watched_folder` and `watched_photo`. A photo's hash is its primary key, so two processes
    /// watching one folder queue it once: the insert and the enqueue are one transaction.
    static func registerWatchedPhotosMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v21-watched-photos") { db in
            try db.create(table: "watched_folder") { t in
                t.primaryKey("path", .text)
                // Seconds since 1970: files whose status changed before are not new.
                t.column("mark", .double).notNull()
                t.column("startedAt", .datetime).notNull()
            }
            try db.create(table: "watched_photo") { t in
                t.primaryKey("hash", .text)
                t.column("folder", .text).notNull()
                t.column("path", .text).notNull()
                t.column("batchItemId", .integer).references("batch_item", onDelete: .setNull).indexed()
                t.column("arrivedAt", .datetime).notNull()
            }
        }
    }

    // MARK: - Writes

    /// Starts a watch session on `folder` and returns its mark: the first session's start, later
    /// moved on by `advanceWatchMark`. A file whose status changed after the mark arrived while
    /// no Crate watched, so it is still new.
    public func beginWatchSession(folder: String, at date: Date = Date()) throws -> Date {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: "INSERT OR IGNORE INTO watched_folder (path, mark, startedAt) VALUES (?, ?, ?)",
                           arguments: [folder, date.timeIntervalSince1970, date])
            try db.execute(sql: "UPDATE watched_folder SET startedAt = ? WHERE path = ?", arguments: [date, folder])
            let mark = try Double.fetchOne(db, sql: "SELECT mark FROM watched_folder WHERE path = ?", arguments: [folder]) ?? date.timeIntervalSince1970
            return Date(timeIntervalSince1970: mark)
        }
    }

    /// Moves the folder's mark forward (never back): everything changed before `mark` was handled.
    public func advanceWatchMark(folder: String, to mark: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE watched_folder SET mark = MAX(mark, ?) WHERE path = ?", arguments: [mark.timeIntervalSince1970, folder])
        }
    }

    /// Records a finished photo and queues it, in ONE transaction, unless a photo with the same
    /// bytes was taken before (by this process or another). Returns its new queue item's id, or
    /// nil when the hash was already known. A kill before the commit leaves neither, so the next
    /// start sees the photo as new again; after it, the queue has it.
    public func enqueueWatchedPhoto(hash: String, path: String, folder: String, at date: Date = Date()) throws -> Int64? {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: "INSERT OR IGNORE INTO watched_photo (hash, folder, path, arrivedAt) VALUES (?, ?, ?, ?)",
                           arguments: [hash, folder, path, date])
            guard db.changesCount == 1 else { return nil }
            try db.execute(
                sql: "INSERT OR IGNORE INTO batch_item (path, state, attempts, addedAt, updatedAt) VALUES (?, ?, 0, ?, ?)",
                arguments: [path, BatchItemState.pending.rawValue, date, date])
            // The same path may already wait (rewritten with new bytes): that item scans it.
            let itemID = db.changesCount == 1 ? db.lastInsertedRowID
                : try Int64.fetchOne(db, sql: "SELECT id FROM batch_item WHERE path = ? AND state = ?",
                                     arguments: [path, BatchItemState.pending.rawValue]) ?? db.lastInsertedRowID
            try db.execute(sql: "UPDATE watched_photo SET batchItemId = ? WHERE hash = ?", arguments: [itemID, hash])
            return itemID
        }
    }

    /// Claims the pending queue item `id` when no live process holds it (never queuing anything:
    /// a finished photo is not scanned again). Nil when it is finished or held elsewhere.
    public func claimPendingBatchItem(id: Int64, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = BatchLease.standard.seconds,
                                      at date: Date = Date()) throws -> BatchItem? {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            return try BatchItem.fetchOne(db, sql: """
                UPDATE batch_item SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = ? AND state = ? AND (\(Self.leaseIsFree) OR leaseOwner = ?)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, id, BatchItemState.pending.rawValue, now, owner.stored])
        }
    }

    // MARK: - Reads

    /// Photos of `folder` (every folder when nil) still waiting in the queue, oldest first: what a
    /// killed watcher left.
    public func pendingWatchedPhotos(folder: String? = nil) throws -> [WatchedArrival] {
        try reader.read { db in
            var sql = """
                SELECT w.hash, w.path, w.batchItemId FROM watched_photo w JOIN batch_item b ON b.id = w.batchItemId
                WHERE b.state = ?
                """
            var arguments: StatementArguments = [BatchItemState.pending.rawValue]
            if let folder {
                sql += " AND w.folder = ?"
                arguments += [folder]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY b.id", arguments: arguments).map {
                WatchedArrival(path: $0["path"], hash: $0["hash"], batchItemID: $0["batchItemId"])
            }
        }
    }

    /// Watched photos that are not covers Crate could name (their scan failed for the photo's own
    /// reason), newest first.
    public func setAsidePhotos(folder: String? = nil) throws -> [SetAsidePhoto] {
        try reader.read { db in
            guard try db.tableExists("watched_photo") else { return [] }
            var sql = """
                SELECT w.hash, w.folder, w.path, w.arrivedAt, b.error FROM watched_photo w JOIN batch_item b ON b.id = w.batchItemId
                WHERE b.state = ?
                """
            var arguments: StatementArguments = [BatchItemState.failed.rawValue]
            if let folder {
                sql += " AND w.folder = ?"
                arguments += [folder]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY w.arrivedAt DESC, b.id DESC", arguments: arguments).map {
                SetAsidePhoto(path: $0["path"], folder: $0["folder"], reason: $0["error"] ?? "", arrivedAt: $0["arrivedAt"], hash: $0["hash"])
            }
        }
    }

    /// How many photos were taken from `folder` (every folder when nil).
    public func watchedPhotoCount(folder: String? = nil) throws -> Int {
        try reader.read { db in
            guard try db.tableExists("watched_photo") else { return 0 }
            if let folder {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM watched_photo WHERE folder = ?", arguments: [folder]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM watched_photo") ?? 0
        }
    }
}
