import Synchronization

/// Counts events (a source answered, a request arrived) and lets a test wait for the n-th one,
/// so it waits on what happened rather than on how long it usually takes.
public final class EventCounter: Sendable {
    private struct State {
        var count = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var count: Int {
        state.withLock { $0.count }
    }

    public func signal() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.target <= count }.map(\.continuation)
            state.waiters.removeAll { $0.target <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `signal()` has been called `target` times in all.
    public func wait(for target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.count >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
