import Foundation

/// The Usage group's lines: this month's scans by tier, tokens, the estimated cost, the budget.
public struct UsageOverview: Equatable, Sendable {
    public var month: String
    public var scans: String
    public var tokens: String
    public var cost: String
    public var budget: String
    /// Why the user's price file is not used, when it is not.
    public var priceProblem: String?

    public init(_ summary: UsageSummary, calendar: Calendar = .current) {
        month = summary.month.spoken(in: calendar)
        scans = "\(summary.totalScans) — local \(summary.scans(.local)), vision \(summary.scans(.vision)), search \(summary.scans(.search))"
        tokens = "\(summary.calls) calls — \(summary.inputTokens) in, \(summary.outputTokens) out"
        var cost = UsageSummary.dollars(summary.estimatedCost)
        if summary.unpricedCalls > 0 { cost += " (\(summary.unpricedCalls) calls of unpriced models not included)" }
        self.cost = cost
        budget = summary.budget.isSet
            ? "\(Int((summary.status.fraction * 100).rounded(.down))) % used (\(summary.status.usedText))"
            : L10n.tr("No monthly budget")
        priceProblem = summary.priceProblem?.message
    }
}
