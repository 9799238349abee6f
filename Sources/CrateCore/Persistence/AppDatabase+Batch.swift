import Foundation
import GRDB

/// Why a batch write was refused.
public enum BatchQueueError: Error, Equatable, Sendable {
    /// The item is no longer pending (another run finished it): its scan was not saved again.
    case notPending(path: String)
    /// Another process holds the item now (this process's lease lapsed while it scanned): its scan
    /// was not saved, so the photo gets one scan, from the holder.
    case claimedElsewhere(path: String)
    /// Runs were killed in the middle of this photo as often as the poison-photo limit allows:
    /// it was failed without another try.
    case triedTooOften(path: String, attempts: Int)

    public var message: String {
        switch self {
        case .notPending(let path): return "\(path) was already scanned from the queue; it was not scanned twice."
        case .claimedElsewhere(let path): return "\(path) is being scanned by another Crate process; it was not scanned twice."
        // The same words the queue stores as the failed item's error (see `failExhausted`).
        case .triedTooOften(_, let attempts): return "Scanning this photo was interrupted \(attempts) times; it was skipped."
        }
    }
}

extension BatchQueueError: LocalizedError {
    public var errorDescription: String? { message }
}

extension AppDatabase {
    // MARK: - Batch queue writes

    /// Queues photos for a bulk scan. A path already waiting is not queued again, but gets its
    /// tries back (unless a live process is scanning it now); returns how many were added.
    ///
    /// Why the tries: a photo whose last try was killed waits with its tries used up until the
    /// next run fails it (the poison-photo limit). Added again, it must be scanned like a failed
    /// photo added again — not skipped by the run the user just asked for.
    @discardableResult
    public func enqueueBatch(paths: [String], at date: Date = Date()) throws -> Int {
        try checkWritable()
        return try guardedWrite { db in
            var added = 0
            for path in paths {
                // The partial unique index on pending paths turns a duplicate into a no-op.
                try db.execute(
                    sql: "INSERT OR IGNORE INTO batch_item (path, state, attempts, addedAt, updatedAt) VALUES (?, ?, 0, ?, ?)",
                    arguments: [path, BatchItemState.pending.rawValue, date, date])
                if db.changesCount > 0 {
                    added += 1
                    continue
                }
                try db.execute(
                    sql: "UPDATE batch_item SET attempts = 0, updatedAt = ? WHERE path = ? AND state = ? AND attempts > 0 AND \(Self.leaseIsFree)",
                    arguments: [date, path, BatchItemState.pending.rawValue, date.timeIntervalSince1970])
            }
            return added
        }
    }

    /// Takes the oldest pending photo no live process holds, counts the attempt and leases it to
    /// `owner` until `leaseDuration` seconds from `date`. Items that have already been started
    /// `maxAttempts` times (each start ended by a crash or kill) are failed instead of retried.
    ///
    /// The claim is ONE `UPDATE … RETURNING` in one write transaction: two processes asking at
    /// the same moment can never get the same photo (docs/decisions/0006-bulk-scan-queue.md).
    public func claimNextBatchItem(maxAttempts: Int, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = BatchLease.standard.seconds,
                                   at date: Date = Date()) throws -> BatchItem? {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            _ = try Self.failExhausted(db, maxAttempts: maxAttempts, at: date)
            return try BatchItem.fetchOne(db, sql: """
                UPDATE batch_item SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = (SELECT id FROM batch_item WHERE state = ? AND \(Self.leaseIsFree) ORDER BY id LIMIT 1)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, BatchItemState.pending.rawValue, now])
        }
    }

    /// Fails the pending photos no live process holds whose tries are used up (runs killed in the
    /// middle of them), and returns them so the run can say so; `claimNextBatchItem` does the same
    /// before each claim.
    public func failExhaustedBatchItems(maxAttempts: Int, at date: Date = Date()) throws -> [BatchItem] {
        try checkWritable()
        return try guardedWrite { db in try Self.failExhausted(db, maxAttempts: maxAttempts, at: date) }
    }

    private static func failExhausted(_ db: Database, maxAttempts: Int, at date: Date) throws -> [BatchItem] {
        try BatchItem.fetchAll(db, sql: """
            UPDATE batch_item SET state = ?, error = ? || attempts || ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?
            WHERE state = ? AND attempts >= ? AND \(leaseIsFree)
            RETURNING *
            """,
            arguments: [BatchItemState.failed.rawValue, "Scanning this photo was interrupted ", " times; it was skipped.", date,
                        BatchItemState.pending.rawValue, maxAttempts, date.timeIntervalSince1970])
    }

    /// Claims the pending item for `path` (queuing it first if it is not waiting) for a scan the
    /// user asked for directly; no attempt limit applies.
    ///
    /// Returns nil when another live process holds that photo's item: the caller then scans the
    /// file on its own (issue #4: a named file gets its own result, never the answer "already
    /// scanned" from somebody else's queue item), and the photo stays safe in the queue with
    /// its holder.
    public func claimBatchItem(path: String, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = BatchLease.standard.seconds,
                               at date: Date = Date()) throws -> BatchItem? {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            if let item = try BatchItem.fetchOne(db, sql: """
                UPDATE batch_item SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE path = ? AND state = ? AND (\(Self.leaseIsFree) OR leaseOwner = ?)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, path, BatchItemState.pending.rawValue, now, owner.stored]) {
                return item
            }
            let held = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM batch_item WHERE path = ? AND state = ?)",
                                         arguments: [path, BatchItemState.pending.rawValue]) ?? false
            if held { return nil }
            return try BatchItem.fetchOne(db, sql: """
                INSERT INTO batch_item (path, state, attempts, addedAt, updatedAt, leaseOwner, leaseExpiresAt)
                VALUES (?, ?, 1, ?, ?, ?, ?) RETURNING *
                """, arguments: [path, BatchItemState.pending.rawValue, date, date, owner.stored, now + leaseDuration])
        }
    }

    /// Extends `owner`'s lease on a pending item while its scan runs. Returns false when the lease
    /// is no longer `owner`'s (it lapsed and another process took the photo, or it is finished).
    @discardableResult
    public func renewBatchLease(id: Int64, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = BatchLease.standard.seconds,
                                at date: Date = Date()) throws -> Bool {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            try db.execute(sql: "UPDATE batch_item SET leaseExpiresAt = ? WHERE id = ? AND state = ? AND leaseOwner = ?",
                           arguments: [date.timeIntervalSince1970 + leaseDuration, id, BatchItemState.pending.rawValue, owner.stored])
            return db.changesCount == 1
        }
    }

    /// SQL true when a pending item's lease binds nobody: never leased, lapsed (before the
    /// time given as the next argument), or held by a process that is gone.
    static let leaseIsFree = "(leaseOwner IS NULL OR leaseExpiresAt <= ? OR crate_lease_gone(leaseOwner))"

    /// Saves a scan and marks its batch item done in ONE transaction, so a kill between the two
    /// can never leave a saved scan whose item is still pending (and so scanned again).
    /// Throws `BatchQueueError.notPending` (saving nothing) when the item was already finished,
    /// and `BatchQueueError.claimedElsewhere` when another process now holds it (this process's
    /// lease lapsed): one photo, one saved scan.
    @discardableResult
    public func saveScan(of album: Album, method: IdentificationMethod, confidence: Double? = nil, at date: Date = Date(),
                         completingBatchItem itemID: Int64, owner: BatchLeaseOwner? = nil, candidates: [ScanCandidate] = [],
                         lookup: ReleaseLookup = .settled) throws -> HistoryEntry {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            guard var item = try BatchItem.fetchOne(db, key: itemID) else { throw CrateError.notFound("The queued photo") }
            guard item.state == .pending else { throw BatchQueueError.notPending(path: item.path) }
            // Another process's live, unexpired lease means it took the photo after ours lapsed.
            let lease = try Row.fetchOne(db, sql: "SELECT leaseOwner, leaseExpiresAt FROM batch_item WHERE id = ?", arguments: [itemID])
            if let holder: String = lease?["leaseOwner"], holder != owner.stored,
               let expiry: Double = lease?["leaseExpiresAt"], expiry > date.timeIntervalSince1970,
               BatchLeaseOwner(stored: holder)?.isCertainlyGone == false {
                throw BatchQueueError.claimedElsewhere(path: item.path)
            }
            let entry = try Self.insertScan(of: album, method: method, confidence: confidence, at: date, candidates: candidates,
                                            lookup: lookup, in: db)
            try Self.finish(&item, scan: entry, at: date, in: db)
            return entry
        }
    }

    /// Marks a queue item done with its saved scan and ends any lease on it (in the caller's
    /// transaction, with the scan's insert).
    static func finish(_ item: inout BatchItem, scan entry: HistoryEntry, at date: Date, in db: Database) throws {
        item.state = .done
        item.scanID = entry.scan.id
        item.error = nil
        item.updatedAt = date
        try item.update(db)
        try db.execute(sql: "UPDATE batch_item SET leaseOwner = NULL, leaseExpiresAt = NULL WHERE id = ?", arguments: [item.id])
    }

    /// Marks a pending item failed with a message for the user. A finished item, or one another
    /// process now holds, is left alone.
    public func failBatchItem(id: Int64, error message: String, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(
                sql: """
                    UPDATE batch_item SET state = ?, error = ?, updatedAt = ?, leaseOwner = NULL, leaseExpiresAt = NULL
                    WHERE id = ? AND state = ? AND (leaseOwner IS NULL OR leaseOwner = ?)
                    """,
                arguments: [BatchItemState.failed.rawValue, message, date, id, BatchItemState.pending.rawValue, leaseOwner.stored])
        }
    }

    /// Gives back an attempt on an item whose scan was stopped on purpose (cancelled, or a problem
    /// such as a wrong key that is not the photo's fault), so it keeps all its tries, and ends this
    /// process's lease so the next run may take it at once.
    /// `reason`, when given, is kept in `error` (a pending item's error says why it waits).
    public func releaseBatchItem(id: Int64, reason: String? = nil, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(
                sql: """
                    UPDATE batch_item SET attempts = MAX(attempts - 1, 0), error = ?, updatedAt = ?, leaseOwner = NULL, leaseExpiresAt = NULL
                    WHERE id = ? AND state = ? AND (leaseOwner IS NULL OR leaseOwner = ?)
                    """,
                arguments: [reason, date, id, BatchItemState.pending.rawValue, leaseOwner.stored])
        }
    }

    // MARK: - Batch queue reads

    public func batchCounts() throws -> BatchCounts {
        try reader.read { db in
            var counts = BatchCounts()
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM batch_item GROUP BY state") {
                let n: Int = row["n"]
                switch BatchItemState(rawValue: row["state"] ?? "") {
                case .pending: counts.pending = n
                case .done: counts.done = n
                case .failed, nil: counts.failed += n
                }
            }
            return counts
        }
    }

    /// Pending photos no live process holds (to resume them when the window starts), in queue order.
    public func unclaimedPendingBatchItems(at date: Date = Date()) throws -> [BatchItem] {
        try reader.read { db in
            try BatchItem.fetchAll(db, sql: "SELECT * FROM batch_item WHERE state = ? AND \(Self.leaseIsFree) ORDER BY id",
                                   arguments: [BatchItemState.pending.rawValue, date.timeIntervalSince1970])
        }
    }

    /// Queued photos in queue order, optionally only those in one state.
    public func batchItems(state: BatchItemState? = nil) throws -> [BatchItem] {
        try reader.read { db in
            var request = BatchItem.order(BatchItem.Columns.id)
            if let state { request = request.filter(BatchItem.Columns.state == state.rawValue) }
            return try request.fetchAll(db)
        }
    }
}
