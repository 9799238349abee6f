import Foundation

/// A server asked Crate to wait longer than it is willing to sit out inside one request
/// (`RetryPolicy.failFastAfter`): the request fails at once with the wait, and the host stays
/// deferred for every Crate process until then. Callers turn it into their service's error
/// (`MusicBrainzError.mustWait`, `CoverArtError.mustWait`) so the message names the service.
public struct RetryLaterError: Error, Equatable, Sendable, LocalizedError {
    /// The host (and port) that asked.
    public let host: String
    /// Seconds still to wait, from when the error was made (never more than `RetryAfter.maximum`).
    public let seconds: TimeInterval
    /// What the server asked for, when it was longer than Crate waits.
    public let requested: TimeInterval?

    public init(host: String, seconds: TimeInterval, requested: TimeInterval? = nil) {
        self.host = host
        self.seconds = max(0, seconds)
        self.requested = requested.flatMap { $0 > seconds ? $0 : nil }
    }

    public var errorDescription: String? {
        if let requested {
            return "The server asked Crate to wait \(WaitDuration.spoken(requested)); Crate waits \(WaitDuration.spoken(seconds)) before sending more requests."
        }
        return "The server asked Crate to wait \(WaitDuration.spoken(seconds)) before sending more requests."
    }
}
