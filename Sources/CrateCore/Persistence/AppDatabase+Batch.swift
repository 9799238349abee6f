import Foundation
import GRDB

/// Why a batch write was refused.
public enum BatchQueueError: Error, Equatable, Sendable {
    /// The item is no longer pending (another run finished it): its scan was not saved again.
    case notPending(path: String)

    public var message: String {
        switch self {
        case .notPending(let path): return "\(path) was already scanned from the queue; it was not scanned twice."
        }
    }
}

extension BatchQueueError: LocalizedError {
    public var errorDescription: String? { message }
}

extension AppDatabase {
    // MARK: - Batch queue writes

    /// Queues photos for a bulk scan. A path already waiting is not queued again; returns how
    /// many were added.
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
                added += db.changesCount
            }
            return added
        }
    }

    /// Takes the oldest pending item and counts the attempt. Items that have already been started
    /// `maxAttempts` times (each start ended by a crash or kill) are failed instead of retried.
    public func claimNextBatchItem(maxAttempts: Int, at date: Date = Date()) throws -> BatchItem? {
        try checkWritable()
        return try guardedWrite { db in
            while var item = try BatchItem.filter(BatchItem.Columns.state == BatchItemState.pending.rawValue)
                .order(BatchItem.Columns.id).fetchOne(db) {
                item.updatedAt = date
                if item.attempts >= maxAttempts {
                    item.state = .failed
                    item.error = "Scanning this photo was interrupted \(item.attempts) times; it was skipped."
                    try item.update(db)
                    continue
                }
                item.attempts += 1
                try item.update(db)
                return item
            }
            return nil
        }
    }

    /// Claims the pending item for `path` (queuing it first if it is not waiting) for a scan the
    /// user asked for directly; no attempt limit applies.
    public func claimBatchItem(path: String, at date: Date = Date()) throws -> BatchItem {
        try checkWritable()
        return try guardedWrite { db in
            if var item = try BatchItem.filter(BatchItem.Columns.path == path && BatchItem.Columns.state == BatchItemState.pending.rawValue).fetchOne(db) {
                item.attempts += 1
                item.updatedAt = date
                try item.update(db)
                return item
            }
            var item = BatchItem(path: path, attempts: 1, addedAt: date, updatedAt: date)
            try item.insert(db)
            return item
        }
    }

    /// Saves a scan and marks its batch item done in ONE transaction, so a kill between the two
    /// can never leave a saved scan whose item is still pending (and so scanned again).
    /// Throws `BatchQueueError.notPending` (saving nothing) when the item was already finished.
    @discardableResult
    public func saveScan(of album: Album, method: IdentificationMethod, confidence: Double? = nil, at date: Date = Date(),
                         completingBatchItem itemID: Int64, candidates: [ScanCandidate] = []) throws -> HistoryEntry {
        try checkWritable()
        return try guardedWrite { db in
            guard var item = try BatchItem.fetchOne(db, key: itemID) else { throw CrateError.notFound("The queued photo") }
            guard item.state == .pending else { throw BatchQueueError.notPending(path: item.path) }
            let entry = try Self.insertScan(of: album, method: method, confidence: confidence, at: date, candidates: candidates, in: db)
            item.state = .done
            item.scanID = entry.scan.id
            item.error = nil
            item.updatedAt = date
            try item.update(db)
            return entry
        }
    }

    /// Marks a pending item failed with a message for the user. A finished item is left alone.
    public func failBatchItem(id: Int64, error message: String, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(
                sql: "UPDATE batch_item SET state = ?, error = ?, updatedAt = ? WHERE id = ? AND state = ?",
                arguments: [BatchItemState.failed.rawValue, message, date, id, BatchItemState.pending.rawValue])
        }
    }

    /// Gives back an attempt on an item whose scan was stopped on purpose (cancelled, or a problem
    /// such as a wrong key that is not the photo's fault), so it keeps all its tries.
    public func releaseBatchItem(id: Int64, at date: Date = Date()) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(
                sql: "UPDATE batch_item SET attempts = MAX(attempts - 1, 0), updatedAt = ? WHERE id = ? AND state = ?",
                arguments: [date, id, BatchItemState.pending.rawValue])
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

    /// Queued photos in queue order, optionally only those in one state.
    public func batchItems(state: BatchItemState? = nil) throws -> [BatchItem] {
        try reader.read { db in
            var request = BatchItem.order(BatchItem.Columns.id)
            if let state { request = request.filter(BatchItem.Columns.state == state.rawValue) }
            return try request.fetchAll(db)
        }
    }
}
