import CrateCore
import Foundation

/// A virtual `NetworkClock`: `sleep` returns at once, moving time forward to the sleeper's wake-up
/// moment (never backwards, so concurrent sleepers keep it monotonic) and recording the wait, so a
/// test of a 3-second `Retry-After` takes microseconds and its timing is exact.
public final class TestClock: NetworkClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: TimeInterval = 1000
    private var wallStart: Date
    private var recordedSleeps: [TimeInterval] = []
    private var recordedWakeTimes: [TimeInterval] = []

    public init(wallClock: Date = Date(timeIntervalSince1970: 1_780_000_000)) {
        wallStart = wallClock
    }

    public func uptime() -> TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return wallStart.addingTimeInterval(current - 1000)
    }

    public func sleep(seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        lock.withLock {
            if seconds > 0 {
                let wake = current + seconds
                current = max(current, wake)
                recordedSleeps.append(seconds)
                recordedWakeTimes.append(wake)
            }
        }
        await Task.yield()
    }

    /// Every positive wait so far, in order.
    public var sleeps: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return recordedSleeps
    }

    /// The virtual moment each positive sleep ended, in call order.
    public var wakeTimes: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return recordedWakeTimes
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

/// Wraps an `HTTPClient` and notes the clock's time at every send: with a `TestClock`, the
/// virtual moment each request left.
public final class TimestampingHTTPClient: HTTPClient, @unchecked Sendable {
    private let base: HTTPClient
    private let clock: NetworkClock
    private let lock = NSLock()
    private var times: [TimeInterval] = []

    public init(base: HTTPClient, clock: NetworkClock) {
        self.base = base
        self.clock = clock
    }

    public var sendTimes: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return times
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let now = clock.uptime()
        lock.withLock { times.append(now) }
        return try await base.send(request)
    }
}
