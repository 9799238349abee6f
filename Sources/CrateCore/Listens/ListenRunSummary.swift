import Foundation

/// What one pass over a service's listen outbox did.
public struct ListenRunSummary: Equatable, Sendable {
    public var sent = 0
    /// Of `sent`: listens an earlier, unanswered request had delivered (found at the service).
    public var alreadyThere = 0
    /// Listens left for a later pass (offline, rate-limited, not signed in).
    public var deferred = 0
    /// Listens the service refused for good.
    public var failed = 0
    /// The last problem, in words.
    public var lastError: String?

    public init() {}
}
