import Foundation

/// The Usage group of Preferences: this month's scans, tokens and estimated cost, and the
/// monthly budget (docs/decisions/0018-usage-meter-and-budget.md).
@MainActor
public final class UsagePreferencesStore {
    public let state = ObservableValue(UsagePreferencesState())
    private let settings: PreferencesSettings

    init(settings: PreferencesSettings) {
        self.settings = settings
        var initial = UsagePreferencesState()
        initial.budgetScans = settings.saved.monthlyBudget.scans.map(String.init) ?? ""
        initial.budgetCost = settings.saved.monthlyBudget.cost.map { String(format: "%.2f", $0) } ?? ""
        state.set(initial)
    }

    // MARK: - Intents

    /// The monthly scan budget as typed (empty: none); saved by `save()`.
    public func setBudgetScans(_ text: String) {
        state.update { $0.budgetScans = text; $0.errorMessage = nil }
    }

    /// The monthly cost budget in dollars as typed (empty: none); saved by `save()`.
    public func setBudgetCost(_ text: String) {
        state.update { $0.budgetCost = text; $0.errorMessage = nil }
    }

    /// Validates and saves the budget. False, with `errorMessage` set, when it cannot be used;
    /// nothing is written then.
    @discardableResult
    public func save() -> Bool {
        let budget: UsageBudget
        switch Self.budget(scans: state.value.budgetScans, cost: state.value.budgetCost) {
        case .success(let value): budget = value
        case .failure(let problem):
            state.update { $0.errorMessage = problem.message }
            return false
        }
        do {
            try settings.save { $0.monthlyBudget = budget }
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        if state.value.errorMessage != nil { state.update { $0.errorMessage = nil } }
        return true
    }

    /// Reads this month's usage (off the main actor) into `state.usage`.
    public func refreshUsage() async {
        let environment = settings.environment
        let current = (try? environment.settings()) ?? settings.saved
        let overview: UsageOverview? = await Task.detached {
            let meter = environment.services(settings: current, offline: true).usage
            return (try? meter.summary()).map { UsageOverview($0, calendar: meter.calendar) }
        }.value
        state.update { $0.usage = overview }
    }

    /// The budget typed in the two fields, or the sentence saying what is wrong with it.
    public static func budget(scans: String, cost: String) -> Result<UsageBudget, BudgetInputError> {
        var budget = UsageBudget()
        let scans = scans.trimmingCharacters(in: .whitespaces)
        if !scans.isEmpty {
            guard let value = Int(scans), (1...1_000_000).contains(value) else { return .failure(.scans) }
            budget.scans = value
        }
        let cost = cost.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "$", with: "").replacingOccurrences(of: ",", with: ".")
        if !cost.isEmpty {
            guard let value = Double(cost), value.isFinite, value > 0, value <= 1_000_000 else { return .failure(.cost) }
            budget.cost = value
        }
        return .success(budget)
    }
}
