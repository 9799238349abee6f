import Foundation

/// Waits, letting other main-actor work run, until `condition` holds. Returns how long that
/// took, or nil when `timeout` passed first.
@MainActor
func waitFor(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Duration? {
    let clock = ContinuousClock()
    let start = clock.now
    while !condition() {
        if clock.now - start > timeout { return nil }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return clock.now - start
}

/// Counts the elements of a change stream, on the main actor, until cancelled.
@MainActor
final class ChangeCounter {
    private(set) var count = 0
    private var task: Task<Void, Never>?

    init(_ changes: AsyncStream<Void>) {
        task = Task { [weak self] in
            for await _ in changes { self?.count += 1 }
        }
    }

    func cancel() {
        task?.cancel()
    }

    isolated deinit {
        task?.cancel()
    }
}
