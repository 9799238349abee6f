import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Usage

    /// Records one provider call.
    @discardableResult
    public func recordUsage(_ record: UsageRecord) throws -> UsageRecord {
        try checkWritable()
        return try writer.write { db in
            var copy = record
            try copy.insert(db)
            return copy
        }
    }

    /// Provider calls, newest first, optionally only those at or after `since`.
    public func usageRecords(since: Date? = nil, limit: Int = 1000) throws -> [UsageRecord] {
        try reader.read { db in
            var request = UsageRecord.all()
            if let since { request = request.filter(UsageRecord.Columns.at >= since) }
            return try request.order(UsageRecord.Columns.at.desc, UsageRecord.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    /// Totals for the usage meter.
    public struct UsageTotals: Equatable, Sendable {
        public var calls: Int
        public var failedCalls: Int
        public var inputTokens: Int
        public var outputTokens: Int
    }

    public func usageTotals(since: Date) throws -> UsageTotals {
        try reader.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS calls,
                       COALESCE(SUM(CASE WHEN success THEN 0 ELSE 1 END), 0) AS failed,
                       COALESCE(SUM(inputTokens), 0) AS input,
                       COALESCE(SUM(outputTokens), 0) AS output
                FROM usage WHERE at >= ?
                """, arguments: [since])
            return UsageTotals(
                calls: row?["calls"] ?? 0,
                failedCalls: row?["failed"] ?? 0,
                inputTokens: row?["input"] ?? 0,
                outputTokens: row?["output"] ?? 0
            )
        }
    }
}
