import Foundation

/// When and how `ResilientHTTPClient` retries, and how it paces a host.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included: 2 means one automatic retry.
    public var maxAttempts: Int = 2
    /// The first backoff; doubles per attempt, plus up to 50 % jitter.
    public var baseDelay: TimeInterval = 1
    public var maxBackoff: TimeInterval = 30
    /// A retry that would have to wait longer than this is not made inside the call: the response
    /// goes back to the caller (the host stays deferred for everyone).
    public var maxRetryWait: TimeInterval = 30
    /// Statuses that are worth one more try.
    public var retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]
    /// Minimum time between two requests to the same host, process-wide; 0 = unpaced.
    public var minimumInterval: TimeInterval = 0

    public init() {}

    /// For ordinary services (Cover Art Archive, providers).
    public static let standard = RetryPolicy()

    /// MusicBrainz: 1 request per second for the whole process. Slots are 1.1 s apart because
    /// pacing starts at departure and MusicBrainz counts arrivals: a request delayed on its way
    /// (thread start, connect) must not land within a second of the next one.
    public static var musicBrainz: RetryPolicy {
        var policy = RetryPolicy()
        policy.minimumInterval = 1.1
        return policy
    }

    /// The backoff before attempt `attempt + 1`, given a jitter fraction in `0...1`.
    func backoff(afterAttempt attempt: Int, jitter: Double) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(max(0, attempt - 1)))
        return min(maxBackoff, exponential * (1 + 0.5 * min(max(jitter, 0), 1)))
    }
}
