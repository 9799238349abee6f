import Foundation

/// The usage meter and the monthly budget over the library: counts come from the database (so
/// every Crate process sees the same month), costs from the price table, limits from settings.
public struct UsageMeter: Sendable {
    public let database: AppDatabase
    public let prices: PriceTable.Loaded
    public let budget: UsageBudget
    public let calendar: Calendar
    private let clock: @Sendable () -> Date

    public init(database: AppDatabase, prices: PriceTable.Loaded, budget: UsageBudget, calendar: Calendar = .current,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.prices = prices
        self.budget = budget
        self.calendar = calendar
        self.clock = clock
    }

    public var currentMonth: UsageMonth { UsageMonth(containing: clock(), calendar: calendar) }

    /// The month's usage (this month by default).
    public func summary(for month: UsageMonth? = nil) throws -> UsageSummary {
        let month = month ?? currentMonth
        let (start, end) = month.interval(in: calendar)
        let scans = try database.scanUsage(from: start, to: end)
        var models: [String: UsageSummary.ModelLine] = [:]
        var order: [String] = []
        for group in try database.providerCalls(from: start, to: end) {
            let key = group.provider + "\u{0}" + group.model
            if models[key] == nil {
                order.append(key)
                models[key] = UsageSummary.ModelLine(provider: group.provider, model: group.model, calls: 0, failedCalls: 0, searchCalls: 0,
                                                     inputTokens: 0, outputTokens: 0, cost: 0)
            }
            models[key]!.calls += group.calls
            models[key]!.failedCalls += group.failedCalls
            models[key]!.searchCalls += group.usedSearch ? group.calls - group.failedCalls : 0
            models[key]!.inputTokens += group.inputTokens
            models[key]!.outputTokens += group.outputTokens
            if let entry = prices.table.entry(provider: group.provider, model: group.model) {
                let searches = group.usedSearch ? Double(group.calls - group.failedCalls) : 0
                let cost = Double(group.inputTokens) * entry.input / 1_000_000 + Double(group.outputTokens) * entry.output / 1_000_000
                    + searches * (entry.searchCall ?? 0)
                models[key]!.cost = models[key]!.cost.map { $0 + cost }
            } else {
                models[key]!.cost = nil
            }
        }
        var summary = UsageSummary(month: month, scans: scans, models: order.compactMap { models[$0] }, budget: budget,
                                   status: BudgetStatus(level: .fine, fraction: 0, usedText: "", month: month, resetsOn: month.next.start(in: calendar)),
                                   priceSource: prices.source, priceProblem: prices.problem)
        summary.status = status(of: summary)
        return summary
    }

    /// How `summary` stands against the budget: the limit with the largest share used binds.
    public func status(of summary: UsageSummary) -> BudgetStatus {
        var fraction = 0.0
        var usedText = ""
        if let limit = budget.scans {
            let share = limit > 0 ? Double(summary.providerScans) / Double(limit) : 1
            if share >= fraction {
                fraction = share
                usedText = "\(summary.providerScans) of \(limit) scans"
            }
        }
        if let limit = budget.cost {
            let share = limit > 0 ? summary.estimatedCost / limit : 1
            if share >= fraction || usedText.isEmpty {
                fraction = max(fraction, share)
                usedText = "\(UsageSummary.dollars(summary.estimatedCost)) of \(UsageSummary.dollars(limit))"
            }
        }
        let level: BudgetLevel = !budget.isSet ? .fine
            : fraction >= 1 ? .usedUp
            : fraction >= UsageBudget.noticeFraction ? .nearlyUsed : .fine
        return BudgetStatus(level: level, fraction: fraction, usedText: usedText, month: summary.month,
                            resetsOn: summary.month.next.start(in: calendar))
    }

    /// This month against the budget.
    public func status() throws -> BudgetStatus {
        guard budget.isSet else {
            let month = currentMonth
            return BudgetStatus(level: .fine, fraction: 0, usedText: "", month: month, resetsOn: month.next.start(in: calendar))
        }
        return try summary().status
    }

    /// The budget notice the window should show now: at 80 % and again at 100 %, each once per
    /// month across every Crate process (`AppDatabase.claimUsageNotice`). Nil when there is
    /// nothing new to say.
    public func noticeToShow() throws -> String? {
        guard budget.isSet else { return nil }
        let status = try self.status()
        guard status.level != .fine, let notice = status.notice(calendar: calendar) else { return nil }
        guard try database.claimUsageNotice(month: status.month, level: status.level, at: clock()) else { return nil }
        return notice
    }

    /// Throws `UsageBudgetError.usedUp` when this month's budget is used up. A meter that cannot
    /// be read does not stop the user (it is logged): the budget is a guard, not a lock.
    public func checkProviderAllowed() throws {
        guard budget.isSet else { return }
        let status: BudgetStatus
        do {
            status = try self.status()
        } catch {
            Log.error("usage meter could not be read: \(UserMessage.text(for: error))")
            return
        }
        if status.level == .usedUp {
            throw UsageBudgetError.usedUp(usedText: status.usedText, resetsOn: status.resetsOn)
        }
    }
}
