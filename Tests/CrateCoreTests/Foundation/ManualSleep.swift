import Foundation
import Synchronization

/// A sleep the test ends: `sleep` waits until `wake()`; `nextRequest()` waits (on an event, not a
/// poll) until something sleeps and says for how long it asked.
final class ManualSleep: Sendable {
    private let sleepers = Mutex<[(seconds: TimeInterval, resume: CheckedContinuation<Void, Never>)]>([])
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let seen = Mutex(0)

    init() {
        (arrivals, arrived) = AsyncStream.makeStream()
    }

    func sleep(_ seconds: TimeInterval) async {
        await withCheckedContinuation { continuation in
            sleepers.withLock { $0.append((seconds, continuation)) }
            arrived.yield()
        }
    }

    /// The delay of the oldest sleeper not yet reported (waiting for one to arrive).
    func nextRequest() async -> TimeInterval {
        for await _ in arrivals {
            if let seconds = sleepers.withLock({ $0.first?.seconds }) { return seconds }
        }
        return -1
    }

    /// Ends the oldest sleep.
    func wake() {
        sleepers.withLock { $0.isEmpty ? nil : $0.removeFirst() }?.resume.resume()
    }
}
