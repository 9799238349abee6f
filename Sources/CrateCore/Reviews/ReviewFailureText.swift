import Foundation

/// How a failed review reads in the pane, in one place.
public enum ReviewFailureText {
    public static let title = L10n.tr("Review Temporarily Unavailable")
    public static let tip = "Tip: scan this album again (or press Regenerate) to retry generating the review."

    /// Errors that carry their own user message (e.g. a wrong key pointing to settings) keep it.
    public static func message(for error: Error) -> String {
        if let problem = error as? KeyProblem { return problem.keyProblemMessage }
        if let budget = error as? UsageBudgetError { return budget.message }
        if let review = error as? ReviewError { return [review.message, review.tip].compactMap { $0 }.joined(separator: " ") }
        if let described = error as? LocalizedError, let text = described.errorDescription { return "\(text) \(tip)" }
        return tip
    }
}
