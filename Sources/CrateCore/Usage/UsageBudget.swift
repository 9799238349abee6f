import Foundation

/// The optional monthly budget (Preferences, `crate usage --budget-…`): a number of scans that
/// need the provider, an estimated cost in dollars, or both. Nil fields mean no limit.
public struct UsageBudget: Equatable, Sendable, Codable {
    public var scans: Int?
    public var cost: Double?

    public init(scans: Int? = nil, cost: Double? = nil) {
        self.scans = scans
        self.cost = cost
    }

    public static let none = UsageBudget()
    public var isSet: Bool { scans != nil || cost != nil }

    /// The share of the budget that is used: 80 % brings a notice, 100 % stops provider calls.
    public static let noticeFraction = 0.8
}

/// How this month stands against the budget.
public enum BudgetLevel: String, Equatable, Sendable, Comparable {
    case fine
    /// 80 % or more of a budget is used.
    case nearlyUsed = "nearly-used"
    /// A budget is used up: scans that need the provider stop until the next month.
    case usedUp = "used-up"

    private var rank: Int { self == .fine ? 0 : self == .nearlyUsed ? 1 : 2 }
    public static func < (lhs: BudgetLevel, rhs: BudgetLevel) -> Bool { lhs.rank < rhs.rank }
}

/// The budget measured: which limit binds, how much of it is used, when it resets.
public struct BudgetStatus: Equatable, Sendable {
    public var level: BudgetLevel
    /// The largest share used among the limits that are set (0 with no budget).
    public var fraction: Double
    /// "120 of 150 scans" or "$4.10 of $5.00": the limit that binds.
    public var usedText: String
    public var month: UsageMonth
    /// The first day of next month, when the budget starts again.
    public var resetsOn: Date

    /// The sentence for the 80 % notice (window toast, CLI stderr line); nil below 80 %.
    public func notice(calendar: Calendar = .current) -> String? {
        switch level {
        case .fine: return nil
        case .nearlyUsed:
            return L10n.tr("%@ %% of this month's budget is used (%@). At 100 %% Crate stops scans that need the identification service until %@; covers already in your crate are still recognised.", Int((fraction * 100).rounded(.down)), usedText, BudgetStatus.day(resetsOn, calendar: calendar))
        case .usedUp:
            return UsageBudgetError.usedUp(usedText: usedText, resetsOn: resetsOn).message(calendar: calendar)
        }
    }

    /// "1 December 2026".
    static func day(_ date: Date, calendar: Calendar) -> String {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "d MMMM yyyy"
        return formatter.string(from: date)
    }
}

/// A provider call refused because this month's budget is used up. Local (tier 0) scans are
/// never refused.
public enum UsageBudgetError: Error, Equatable, Sendable {
    case usedUp(usedText: String, resetsOn: Date)

    public func message(calendar: Calendar = .current) -> String {
        switch self {
        case .usedUp(let used, let resetsOn):
            return L10n.tr("This month's budget for the identification service is used up (%@) — raise it in Preferences or wait until %@. Covers already in your crate are still recognised offline.", used, BudgetStatus.day(resetsOn, calendar: calendar))
        }
    }

    public var message: String { message() }
}

extension UsageBudgetError: LocalizedError {
    public var errorDescription: String? { message }
}
