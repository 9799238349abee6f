/// The Usage group of Preferences: this month's usage and the monthly budget as typed.
public struct UsagePreferencesState: Equatable, Sendable {
    /// The monthly budget as typed: empty means no limit.
    public var budgetScans = ""
    public var budgetCost = ""
    /// This month's usage (nil until read).
    public var usage: UsageOverview?
    public var errorMessage: String?

    public init() {}
}
