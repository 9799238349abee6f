import Foundation
import Synchronization

/// Paces requests per host. Each caller reserves the next free slot for its host and then waits
/// for it, so concurrent callers never share a slot.
///
/// MusicBrainz allows 1 request per second per IP: every MusicBrainz request goes through a
/// limiter with a 1.1 s interval. Pacing works at two levels:
/// - in the process (this actor), so the threads of one process queue without touching a file;
/// - across the user's processes, when built with a `SharedPacingStore`: after its in-process
///   turn, a caller books a slot in the host's shared file and sleeps until it (the file's lock is
///   not held while sleeping).
///
/// A `Retry-After` defers the host, in the process and in the shared file, so every Crate process
/// honours it.
public actor RateLimiter {
    /// A limiter for this process only, for clients built without an `AppEnvironment`.
    public static let shared = RateLimiter(clock: SystemNetworkClock())

    /// Woken more than this after its shared slot, a caller books a new one instead of going:
    /// another process may have booked the slot right after, and both would go out together.
    /// So callers that go start within `lateness` of their slot, and slots are `interval` apart.
    static let lateness: TimeInterval = 0.05
    /// After this many late wake-ups in a row (a badly overloaded machine) the caller goes anyway.
    static let maxRebookings = 5

    private let clock: NetworkClock
    /// The shared state; nil paces within this process only.
    public nonisolated let store: SharedPacingStore?
    /// Next free slot for paced callers (MusicBrainz), per host, on the monotonic clock.
    private var nextSlot: [String: TimeInterval] = [:]
    /// "Not before" set by a server's Retry-After; every caller to the host honours it.
    private var deferredUntil: [String: TimeInterval] = [:]
    /// The shared store failed once already: logged once per process, then tried again quietly
    /// each time (the runtime directory may come back; a stopped process may let go of a lock).
    private var storeFailureLogged = false

    public init(clock: NetworkClock, store: SharedPacingStore? = nil) {
        self.clock = clock
        self.store = store
    }

    /// The one limiter of this process for `store`'s directory: every `AppEnvironment` (and so
    /// every client) in the process then shares the in-process queue as well as the file.
    public static func sharedAcrossProcesses(store: SharedPacingStore) -> RateLimiter {
        registry.withLock { limiters in
            if let existing = limiters[store.directory.path] { return existing }
            let limiter = RateLimiter(clock: SystemNetworkClock(), store: store)
            limiters[store.directory.path] = limiter
            return limiter
        }
    }

    /// Waits until a request to `host` may start, then reserves `interval` after it.
    ///
    /// Unpaced callers (`interval` 0) only wait for a Retry-After; they never queue behind paced
    /// ones, so a Cover Art Archive or provider call on the same host as a MusicBrainz mirror is
    /// not held back a second.
    ///
    /// - Parameter maxDeferral: a server-imposed wait longer than this is not sat out: throws
    ///   `RetryLaterError` with the time left.
    public func acquire(host: String, interval: TimeInterval, maxDeferral: TimeInterval = .infinity) async throws {
        let now = clock.uptime()
        let deferred = deferredUntil[host] ?? now
        if deferred - now > maxDeferral { throw RetryLaterError(host: host, seconds: deferred - now) }
        var slot = max(now, deferred)
        if interval > 0 {
            slot = max(slot, nextSlot[host] ?? now)
            nextSlot[host] = slot + interval
        }
        // Waiting suspends the actor, so other callers can reserve later slots meanwhile.
        try await clock.sleep(seconds: slot - now)
        try await acquireShared(host: host, interval: interval, maxDeferral: maxDeferral)
    }

    /// The server said "not before `delay` seconds from now" (503/429 with `Retry-After`). One
    /// answer never pauses the host longer than `RetryAfter.maximum`.
    public func deferHost(_ host: String, by delay: TimeInterval) {
        let delay = RetryAfter.granted(delay.isNaN ? 0 : delay)
        let until = clock.uptime() + delay
        deferredUntil[host] = max(deferredUntil[host] ?? 0, until)
        nextSlot[host] = max(nextSlot[host] ?? 0, until)
        guard let store else { return }
        let wall = clock.now().timeIntervalSince1970
        do {
            try store.deferKey(host, until: wall + delay, now: wall)
        } catch {
            noteStoreFailure(error)
        }
    }

    /// Seconds before a request to `host` may go because a server asked for a pause (0 if none),
    /// as this process and the shared store know it.
    public func pendingDeferral(host: String) -> TimeInterval {
        let now = clock.uptime()
        var remaining = max(0, (deferredUntil[host] ?? now) - now)
        if let store {
            let wall = clock.now().timeIntervalSince1970
            do {
                remaining = max(remaining, try store.deferredUntil(key: host, now: wall) - wall)
            } catch {
                noteStoreFailure(error)
            }
        }
        return remaining
    }

    /// The key requests are paced by: host and port, lower-cased.
    public nonisolated static func key(for url: URL) -> String {
        let host = url.host?.lowercased() ?? ""
        return url.port.map { "\(host):\($0)" } ?? host
    }
}

// MARK: - Private

private extension RateLimiter {
    static let registry = Mutex<[String: RateLimiter]>([:])

    /// Books and waits for a slot in the shared file. A store that fails leaves pacing to this
    /// call: a missing runtime directory must not stop a scan.
    func acquireShared(host: String, interval: TimeInterval, maxDeferral: TimeInterval) async throws {
        guard let store else { return }
        var rebookings = 0
        while true {
            let wall = clock.now().timeIntervalSince1970
            let reservation: SharedPacingStore.Reservation
            do {
                reservation = try store.reserve(key: host, interval: interval, now: wall, maxDeferral: maxDeferral)
            } catch {
                noteStoreFailure(error)
                return
            }
            switch reservation {
            case .deferred(let until):
                // Another process heard the Retry-After; remember it here too.
                let remaining = until - wall
                deferredUntil[host] = max(deferredUntil[host] ?? 0, clock.uptime() + remaining)
                throw RetryLaterError(host: host, seconds: remaining)
            case .slot(let start):
                guard start > wall else { return }
                try await clock.sleep(seconds: start - wall)
                let late = clock.now().timeIntervalSince1970 - start
                guard interval > 0, late > Self.lateness, rebookings < Self.maxRebookings else { return }
                rebookings += 1
                Log.debug("woke \(String(format: "%.2f", late)) s after the shared slot for \(host); booking another")
            }
        }
    }

    func noteStoreFailure(_ error: Error) {
        guard !storeFailureLogged else { return }
        storeFailureLogged = true
        Log.error("pacing with other Crate processes is off for this process (\(error)); pacing within the process only")
    }
}
