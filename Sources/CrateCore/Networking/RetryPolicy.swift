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
    /// Minimum time between two requests to the same host, across the limiter's processes; 0 = unpaced.
    public var minimumInterval: TimeInterval = 0
    /// A server-imposed wait (`Retry-After`, or a deferral another request or process heard)
    /// longer than this fails the request at once with `RetryLaterError`, carrying the wait, so
    /// the caller can tell the user and keep the work for later instead of sitting silent.
    /// Nil: the old behaviour (the response is handed back; the host is deferred ≤ 2 minutes).
    public var failFastAfter: TimeInterval?

    public init() {}

    /// For ordinary services (Cover Art Archive, providers).
    public static let standard = RetryPolicy()

    /// MusicBrainz: 1 request per second for the whole process. Slots are 1.1 s apart because
    /// pacing starts at departure and MusicBrainz counts arrivals: a request delayed on its way
    /// (thread start, connect) must not land within a second of the next one.
    ///
    /// A `Retry-After` up to 15 s is waited out in the call; a longer one fails fast.
    public static var musicBrainz: RetryPolicy {
        var policy = RetryPolicy()
        policy.minimumInterval = 1.1
        policy.maxRetryWait = 15
        policy.failFastAfter = 15
        return policy
    }

    /// The Cover Art Archive: unpaced (it asks for no rate), but a long `Retry-After` fails fast
    /// like MusicBrainz's, leaving the artwork to a later repair run.
    public static var coverArtArchive: RetryPolicy {
        var policy = RetryPolicy()
        policy.maxRetryWait = 15
        policy.failFastAfter = 15
        return policy
    }

    /// The backoff before attempt `attempt + 1`, given a jitter fraction in `0...1`.
    func backoff(afterAttempt attempt: Int, jitter: Double) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(max(0, attempt - 1)))
        return min(maxBackoff, exponential * (1 + 0.5 * min(max(jitter, 0), 1)))
    }
}
