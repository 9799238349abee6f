import CrateCore
import Foundation
import Synchronization

/// A virtual `NetworkClock`: `sleep` returns at once, moving time forward to the sleeper's wake-up
/// moment (never backwards, so concurrent sleepers keep it monotonic) and recording the wait, so a
/// test of a 3-second `Retry-After` takes microseconds and its timing is exact.
public final class TestClock: NetworkClock, Sendable {
    private struct State {
        var current: TimeInterval = 1000
        var sleeps: [TimeInterval] = []
        var wakeTimes: [TimeInterval] = []
    }

    private let state = Mutex(State())
    private let wallStart: Date

    public init(wallClock: Date = Date(timeIntervalSince1970: 1_780_000_000)) {
        wallStart = wallClock
    }

    public func uptime() -> TimeInterval {
        state.withLock { $0.current }
    }

    public func now() -> Date {
        wallStart.addingTimeInterval(uptime() - 1000)
    }

    public func sleep(seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            if seconds > 0 {
                let wake = state.current + seconds
                state.current = max(state.current, wake)
                state.sleeps.append(seconds)
                state.wakeTimes.append(wake)
            }
        }
        await Task.yield()
    }

    /// Every positive wait so far, in order.
    public var sleeps: [TimeInterval] {
        state.withLock { $0.sleeps }
    }

    /// The virtual moment each positive sleep ended, in call order.
    public var wakeTimes: [TimeInterval] {
        state.withLock { $0.wakeTimes }
    }

    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.current += seconds }
    }
}

/// Wraps an `HTTPClient` and notes the clock's time at every send: with a `TestClock`, the
/// virtual moment each request left.
public final class TimestampingHTTPClient: HTTPClient, Sendable {
    private let base: HTTPClient
    private let clock: NetworkClock
    private let times = Mutex<[TimeInterval]>([])

    public init(base: HTTPClient, clock: NetworkClock) {
        self.base = base
        self.clock = clock
    }

    public var sendTimes: [TimeInterval] {
        times.withLock { $0 }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let now = clock.uptime()
        times.withLock { $0.append(now) }
        return try await base.send(request)
    }
}
