import Foundation

/// One service's share of the listen outbox, for `crate listens status` and Preferences.
public struct ListenServiceStatus: Equatable, Sendable {
    public var queued = 0
    public var sent = 0
    public var failed = 0
    /// The newest unsent listen's problem, in words.
    public var lastError: String?
    /// When the next retry is due, if listens wait after a failure.
    public var nextAttemptAt: Date?

    public init() {}
}
