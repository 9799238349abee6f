import Foundation

/// A monthly budget typed in Preferences that cannot be used.
public enum BudgetInputError: Error, Equatable, Sendable {
    case scans
    case cost

    public var message: String {
        switch self {
        case .scans: return L10n.tr("The monthly scan budget must be a whole number of scans from 1 to 1000000, or empty for no limit.")
        case .cost: return L10n.tr("The monthly cost budget must be an amount of dollars above 0 (such as 5.00), or empty for no limit.")
        }
    }
}

extension BudgetInputError: LocalizedError {
    public var errorDescription: String? { message }
}
