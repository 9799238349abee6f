import Foundation

/// Paces requests per host, process-wide. Each caller reserves the next free slot for its host and
/// then waits for it, so concurrent callers never share a slot.
///
/// MusicBrainz allows 1 request per second per IP: every MusicBrainz request in the process goes
/// through `RateLimiter.shared` with a 1 s interval. A `Retry-After` pushes the host's next slot.
public actor RateLimiter {
    /// The one limiter for the whole process.
    public static let shared = RateLimiter(clock: SystemNetworkClock())

    private let clock: NetworkClock
    /// Next free slot for paced callers (MusicBrainz), per host.
    private var nextSlot: [String: TimeInterval] = [:]
    /// "Not before" set by a server's Retry-After; every caller to the host honours it.
    private var deferredUntil: [String: TimeInterval] = [:]

    public init(clock: NetworkClock) {
        self.clock = clock
    }

    /// Waits until a request to `host` may start, then reserves `interval` after it.
    ///
    /// Unpaced callers (`interval` 0) only wait for a Retry-After; they never queue behind paced
    /// ones, so a Cover Art Archive or provider call on the same host as a MusicBrainz mirror is
    /// not held back a second.
    public func acquire(host: String, interval: TimeInterval) async throws {
        let now = clock.uptime()
        var slot = max(now, deferredUntil[host] ?? now)
        if interval > 0 {
            slot = max(slot, nextSlot[host] ?? now)
            nextSlot[host] = slot + interval
        }
        // Waiting suspends the actor, so other callers can reserve later slots meanwhile.
        try await clock.sleep(seconds: slot - now)
    }

    /// The server said "not before `delay` seconds from now" (503/429 with `Retry-After`).
    public func deferHost(_ host: String, by delay: TimeInterval) {
        let until = clock.uptime() + delay
        deferredUntil[host] = max(deferredUntil[host] ?? 0, until)
        nextSlot[host] = max(nextSlot[host] ?? 0, until)
    }

    /// The key requests are paced by: host and port, lower-cased.
    public nonisolated static func key(for url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
