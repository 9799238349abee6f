import Foundation
import GRDB

extension AppDatabase {
    /// Puts failed photos back in the queue with all their tries (Retry) and returns the paths
    /// to scan, in the order asked. A photo already waiting under the same path keeps that item;
    /// the failed duplicate is dropped. Waiting photos are returned as they are.
    @discardableResult
    public func requeueUnscannedPhotos(ids: [Int64], at date: Date = Date()) throws -> [URL] {
        try checkWritable()
        return try guardedWrite { db in
            var paths: [URL] = []
            for id in ids {
                guard let item = try BatchItem.fetchOne(db, key: id), item.state != .done else { continue }
                if item.state == .failed {
                    try db.execute(sql: """
                        UPDATE OR IGNORE batch_item SET state = ?, error = NULL, attempts = 0, updatedAt = ?
                        WHERE id = ? AND state = ?
                        """, arguments: [BatchItemState.pending.rawValue, date, id, BatchItemState.failed.rawValue])
                    try db.execute(sql: "DELETE FROM batch_item WHERE id = ? AND state = ?", arguments: [id, BatchItemState.failed.rawValue])
                }
                paths.append(URL(fileURLWithPath: item.path))
            }
            return paths
        }
    }

    /// Forgets a photo without a scan (Remove). A photo some process is scanning right now is
    /// left alone; returns whether it was removed.
    @discardableResult
    public func removeUnscannedPhoto(id: Int64, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: """
                DELETE FROM batch_item WHERE id = ? AND (state = ? OR (state = ? AND \(Self.leaseIsFree)))
                """, arguments: [id, BatchItemState.failed.rawValue, BatchItemState.pending.rawValue, date.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    /// Photos that wait for the network, a key or a pause (pending with a reason, held by no
    /// process), oldest first: what to scan again when the connection returns.
    public func waitingPhotos(at date: Date = Date()) throws -> [URL] {
        try reader.read { db in
            try String.fetchAll(db, sql: """
                SELECT path FROM batch_item WHERE state = ? AND error IS NOT NULL AND \(Self.leaseIsFree) ORDER BY id
                """, arguments: [BatchItemState.pending.rawValue, date.timeIntervalSince1970]).map { URL(fileURLWithPath: $0) }
        }
    }
}

extension AppDatabase {
    /// "Tell Crate what it is" for a photo History lists without a scan: saves the scan of
    /// `album` (method manual) and finishes the photo's queue item in ONE transaction. A photo
    /// some process is scanning right now, or one already scanned, is left alone
    /// (`BatchQueueError`), with nothing saved.
    @discardableResult
    public func saveManualScan(of album: Album, forUnscannedPhoto itemID: Int64, at date: Date = Date()) throws -> HistoryEntry {
        try checkWritable()
        return try guardedWrite { db in
            guard var item = try BatchItem.fetchOne(db, key: itemID) else { throw CrateError.notFound("The photo") }
            guard item.state != .done else { throw BatchQueueError.notPending(path: item.path) }
            if item.state == .pending {
                let free = try Bool.fetchOne(db, sql: "SELECT \(Self.leaseIsFree) FROM batch_item WHERE id = ?",
                                             arguments: [date.timeIntervalSince1970, itemID]) ?? false
                guard free else { throw BatchQueueError.claimedElsewhere(path: item.path) }
            }
            let entry = try Self.insertScan(of: album, method: .manual, confidence: nil, at: date, candidates: [], lookup: .settled, in: db)
            try Self.finish(&item, scan: entry, at: date, in: db)
            return entry
        }
    }
}
