import Foundation

/// One month of usage: scans by tier, provider calls and tokens, the estimated cost, and how it
/// stands against the budget. What `crate usage` prints and Preferences shows.
public struct UsageSummary: Equatable, Sendable {
    public struct ModelLine: Equatable, Sendable {
        public var provider: String
        public var model: String
        public var calls: Int
        public var failedCalls: Int
        public var searchCalls: Int
        public var inputTokens: Int
        public var outputTokens: Int
        /// Dollars, nil when the price table does not know the model.
        public var cost: Double?
    }

    public var month: UsageMonth
    public var scans: [ScanTier: AppDatabase.TierCount]
    public var models: [ModelLine]
    public var budget: UsageBudget
    public var status: BudgetStatus
    /// Where the prices came from, and why the user's file was not used when it was not.
    public var priceSource: String
    public var priceProblem: PriceTableError?

    public func scans(_ tier: ScanTier) -> Int { scans[tier]?.scans ?? 0 }
    /// Scans that needed the provider (vision + search): what the scan budget counts.
    public var providerScans: Int { ScanTier.allCases.filter(\.needsProvider).reduce(0) { $0 + scans($1) } }
    public var totalScans: Int { ScanTier.allCases.reduce(0) { $0 + scans($1) } }
    public var calls: Int { models.reduce(0) { $0 + $1.calls } }
    public var failedCalls: Int { models.reduce(0) { $0 + $1.failedCalls } }
    public var inputTokens: Int { models.reduce(0) { $0 + $1.inputTokens } }
    public var outputTokens: Int { models.reduce(0) { $0 + $1.outputTokens } }
    /// The estimated cost of the calls whose model is priced.
    public var estimatedCost: Double { models.reduce(0) { $0 + ($1.cost ?? 0) } }
    /// Calls whose model the price table does not know (left out of `estimatedCost`).
    public var unpricedCalls: Int { models.filter { $0.cost == nil }.reduce(0) { $0 + $1.calls } }

    /// "$0.42" (two decimals, four under a cent so small months do not read as free).
    public static func dollars(_ value: Double) -> String {
        value > 0 && value < 0.01 ? String(format: "$%.4f", value) : String(format: "$%.2f", value)
    }

    /// The plain-text report of `crate usage`.
    public func lines(calendar: Calendar = .current) -> [String] {
        var lines = ["Usage for \(month.spoken(in: calendar))"]
        lines.append("Scans: \(totalScans) — local (tier 0) \(scans(.local)), vision \(scans(.vision)), search \(scans(.search))")
        let notFound = ScanTier.allCases.reduce(0) { $0 + (scans[$1].map { $0.scans - $0.found } ?? 0) }
        if notFound > 0 { lines.append("  of which \(notFound) found nothing") }
        lines.append("Provider calls: \(calls)" + (failedCalls > 0 ? " (\(failedCalls) failed)" : "")
                     + " — tokens in \(inputTokens), out \(outputTokens)")
        for line in models {
            let cost = line.cost.map(Self.dollars) ?? "not priced"
            lines.append("  \(line.provider) \(line.model): \(line.calls) calls" + (line.searchCalls > 0 ? " (\(line.searchCalls) with search)" : "")
                         + ", \(line.inputTokens) in / \(line.outputTokens) out, \(cost)")
        }
        var cost = "Estimated cost: \(Self.dollars(estimatedCost))"
        if unpricedCalls > 0 { cost += " (\(unpricedCalls) calls of models without a price are not included)" }
        lines.append(cost)
        if budget.isSet {
            var parts: [String] = []
            if let scans = budget.scans { parts.append("\(scans) scans") }
            if let dollars = budget.cost { parts.append(Self.dollars(dollars)) }
            lines.append("Budget: \(parts.joined(separator: " and ")) a month — \(Int((status.fraction * 100).rounded(.down))) % used (\(status.usedText))")
        } else {
            lines.append("Budget: none (set one with crate usage --budget-scans N or --budget-cost DOLLARS)")
        }
        lines.append("Prices: \(priceSource)")
        if let priceProblem { lines.append(priceProblem.message) }
        return lines
    }
}
