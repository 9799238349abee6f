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

    /// Token counts as summed: clamped like new ones (`TokenUsage.clamped`), so a row stored from
    /// a broken reply before the clamp cannot overflow a month's total or make it negative.
    static let inputTokensSQL = "MIN(MAX(inputTokens, 0), \(TokenUsage.maxInput))"
    static let outputTokensSQL = "MIN(MAX(outputTokens, 0), \(TokenUsage.maxOutput))"

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
                       COALESCE(SUM(\(Self.inputTokensSQL)), 0) AS input,
                       COALESCE(SUM(\(Self.outputTokensSQL)), 0) AS output
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

// MARK: - Scans by tier, per month

/// The tier a scan was answered by, for the usage meter.
public enum ScanTier: String, CaseIterable, Codable, Sendable {
    /// Tier 0: matched offline against covers already in the crate.
    case local
    /// Tier 1: the vision provider read the cover.
    case vision
    /// Tier 2: the vision provider finished with a web search.
    case search

    /// The tier of a saved scan; nil for a manual choice ("Not this album?"), which costs nothing.
    public init?(method: IdentificationMethod) {
        switch method {
        // A barcode costs nothing, like tier 0.
        case .localMatch, .barcode: self = .local
        case .vision: self = .vision
        case .visionSearch: self = .search
        case .manual: return nil
        }
    }

    /// True for the tiers that call the provider (and count against the scan budget).
    public var needsProvider: Bool { self != .local }
}

extension AppDatabase {
    public static let usageTables: Set<String> = [UsageRecord.databaseTableName, "usage_scan"]

    /// Records one scan under its tier. Saved scans are recorded by `saveScan` in the same
    /// transaction; this is for scans that found nothing. An insert, never a read-modify-write,
    /// so processes counting at once never lose a count.
    public func recordScanUsage(tier: ScanTier, found: Bool, at date: Date = Date()) throws {
        try checkWritable()
        try writer.write { db in try Self.insertScanUsage(tier: tier, found: found, at: date, in: db) }
    }

    static func insertScanUsage(tier: ScanTier, found: Bool, at date: Date, in db: Database) throws {
        try db.execute(sql: "INSERT INTO usage_scan (at, tier, found) VALUES (?, ?, ?)", arguments: [date, tier.rawValue, found])
    }

    /// Scans per tier in [start, end): all of them and those that found an album.
    public struct TierCount: Equatable, Sendable {
        public var scans = 0
        public var found = 0
        public init(scans: Int = 0, found: Int = 0) { self.scans = scans; self.found = found }
    }

    public func scanUsage(from start: Date, to end: Date) throws -> [ScanTier: TierCount] {
        try reader.read { db in
            var counts: [ScanTier: TierCount] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT tier, COUNT(*) AS scans, COALESCE(SUM(CASE WHEN found THEN 1 ELSE 0 END), 0) AS found
                FROM usage_scan WHERE at >= ? AND at < ? GROUP BY tier
                """, arguments: [start, end])
            for row in rows {
                // A tier written by a newer Crate is left out rather than failing the meter.
                guard let tier = ScanTier(rawValue: row["tier"]) else { continue }
                counts[tier] = TierCount(scans: row["scans"], found: row["found"])
            }
            return counts
        }
    }

    /// Provider calls in [start, end), grouped by provider, model and whether they searched.
    public struct ModelCalls: Equatable, Sendable {
        public var provider: String
        public var model: String
        public var usedSearch: Bool
        public var calls: Int
        public var failedCalls: Int
        /// Calls whose reply carried no token counts.
        public var callsWithoutTokens: Int
        public var inputTokens: Int
        public var outputTokens: Int
    }

    public func providerCalls(from start: Date, to end: Date) throws -> [ModelCalls] {
        try reader.read { db in
            try Row.fetchAll(db, sql: """
                SELECT provider, model, usedSearch, COUNT(*) AS calls,
                       COALESCE(SUM(CASE WHEN success THEN 0 ELSE 1 END), 0) AS failed,
                       COALESCE(SUM(CASE WHEN success AND inputTokens IS NULL AND outputTokens IS NULL THEN 1 ELSE 0 END), 0) AS untokened,
                       COALESCE(SUM(\(Self.inputTokensSQL)), 0) AS input, COALESCE(SUM(\(Self.outputTokensSQL)), 0) AS output
                FROM usage WHERE at >= ? AND at < ?
                GROUP BY provider, model, usedSearch ORDER BY provider, model, usedSearch
                """, arguments: [start, end]).map { row in
                ModelCalls(provider: row["provider"], model: row["model"], usedSearch: row["usedSearch"], calls: row["calls"],
                           failedCalls: row["failed"], callsWithoutTokens: row["untokened"], inputTokens: row["input"], outputTokens: row["output"])
            }
        }
    }

    /// Claims the right to show the budget notice `level` for `month` once: true for the first
    /// caller of any process, false afterwards.
    public func claimUsageNotice(month: UsageMonth, level: BudgetLevel, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        return try writer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO usage_notice (month, level, shownAt) VALUES (?, ?, ?)",
                           arguments: [month.description, level.rawValue, date])
            return db.changesCount > 0
        }
    }
}
