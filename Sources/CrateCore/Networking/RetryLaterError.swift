import Foundation

/// A server asked Crate to wait longer than it is willing to sit out inside one request
/// (`RetryPolicy.failFastAfter`): the request fails at once with the wait, and the host stays
/// deferred for every Crate process until then. Callers turn it into their service's error
/// (`MusicBrainzError.mustWait`, `CoverArtError.mustWait`) so the message names the service.
public struct RetryLaterError: Error, Equatable, Sendable, LocalizedError {
    /// The host (and port) that asked.
    public let host: String
    /// Seconds still to wait, from when the error was made.
    public let seconds: TimeInterval

    public init(host: String, seconds: TimeInterval) {
        self.host = host
        self.seconds = max(0, seconds)
    }

    public var errorDescription: String? {
        "The server asked Crate to wait \(WaitDuration.spoken(seconds)) before sending more requests."
    }
}
