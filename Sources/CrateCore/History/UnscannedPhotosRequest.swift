import Foundation
import GRDB

/// Photos without a scan that History shows: failed ones, and waiting ones that a previous try
/// gave a reason for (a photo merely waiting its first turn, or being scanned by any process
/// right now, is not listed). Newest first.
public struct UnscannedPhotosRequest: ReadRequest {
    public var limit: Int
    /// Now, for the lease check (a photo leased until later is being scanned).
    public var date: Date

    public init(limit: Int = 200, at date: Date = Date()) {
        self.limit = limit
        self.date = date
    }

    public func fetch(_ db: Database) throws -> [UnscannedPhoto] {
        let items = try BatchItem.fetchAll(db, sql: """
            SELECT * FROM batch_item
            WHERE state = ? OR (state = ? AND error IS NOT NULL AND \(AppDatabase.leaseIsFree))
            ORDER BY updatedAt DESC, id DESC LIMIT ?
            """, arguments: [BatchItemState.failed.rawValue, BatchItemState.pending.rawValue, date.timeIntervalSince1970, limit])
        return items.compactMap { item in
            guard let id = item.id else { return nil }
            return UnscannedPhoto(id: id, path: item.path, reason: item.error ?? ScanFailure.notIdentified.message,
                                  waits: item.state == .pending, date: item.updatedAt)
        }
    }
}
