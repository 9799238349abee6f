import CrateCore
import Foundation
import Synchronization

/// A virtual `NetworkClock` whose sleepers really wait: time moves only when the test moves it,
/// so a deadline passes at a moment the test chose, never because the machine was busy. Unlike
/// `TestClock` (whose sleeps return at once), this one can hold a time limit open for as long as
/// the work it limits takes.
public final class ManualClock: NetworkClock, Sendable {
    private struct Sleeper {
        let wake: TimeInterval
        let continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var current: TimeInterval = 1000
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        /// Every deadline has passed: sleeps, now and later, end at once.
        var expired = false
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
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelled.remove(id) != nil { return nil }
                    let wake = state.current + max(0, seconds)
                    if state.expired || wake <= state.current { return true }
                    state.sleepers[id] = Sleeper(wake: wake, continuation: continuation)
                    return false
                }
                switch outcome {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many sleeps are waiting for time to move.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Moves time forward and wakes every sleeper whose moment has come.
    public func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [Sleeper] in
            state.current += max(0, seconds)
            let now = state.current
            let due = state.sleepers.filter { $0.value.wake <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.wake < $1.wake }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time to the earliest sleeper's moment and wakes it (and any due with it).
    public func advanceToNextWake() {
        let next = state.withLock { state in state.sleepers.values.map(\.wake).min().map { $0 - state.current } }
        if let next { advance(by: next) }
    }

    /// Every time limit has passed: wakes every sleeper, and later sleeps end at once.
    public func expireAll() {
        let all = state.withLock { state -> [Sleeper] in
            state.expired = true
            defer { state.sleepers.removeAll() }
            return Array(state.sleepers.values)
        }
        for sleeper in all { sleeper.continuation.resume() }
    }
}
