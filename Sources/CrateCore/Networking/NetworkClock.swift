import Foundation

/// Time as the retry and rate-limit code sees it. Injectable so tests run a 3-second
/// `Retry-After` in no time, and deterministic.
public protocol NetworkClock: Sendable {
    /// Monotonic seconds (never jumps with the wall clock); used for pacing.
    func uptime() -> TimeInterval
    /// Wall-clock time; used only to read `Retry-After` given as an HTTP date.
    func now() -> Date
    /// Waits `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

/// The real clock.
public struct SystemNetworkClock: NetworkClock {
    public init() {}

    public func uptime() -> TimeInterval { ProcessInfo.processInfo.systemUptime }

    public func now() -> Date { Date() }

    public func sleep(seconds: TimeInterval) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }
}
