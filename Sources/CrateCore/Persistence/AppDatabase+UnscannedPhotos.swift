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
