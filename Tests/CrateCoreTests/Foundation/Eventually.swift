import CrateCore
import CrateTestSupport
import Foundation

/// Polls, letting other main-actor work run, until `condition` holds, for conditions no store
/// announces (a subscriber count, a process id, a file); wait on a store with `waitUntil` instead.
/// The ceiling only catches a hang. Returns how long that took, or nil when it passed first.
@MainActor
func waitFor(ceiling: Duration = .seconds(120), _ condition: () -> Bool) async -> Duration? {
    let clock = ContinuousClock()
    let start = clock.now
    while !condition() {
        if clock.now - start > ceiling { return nil }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return clock.now - start
}

/// Counts the elements of a change stream, on the main actor, until cancelled; a test waits on
/// it with `waitUntil(counter) { … }`.
@MainActor
final class ChangeCounter: ChangeSignal {
    private let counted = ObservableValue(0)
    private var task: Task<Void, Never>?

    var count: Int { counted.value }

    init(_ changes: AsyncStream<Void>) {
        task = Task { [weak self] in
            for await _ in changes {
                guard let self else { return }
                counted.set(counted.value + 1)
            }
        }
    }

    func onChange(_ handler: @escaping @MainActor () -> Void) -> ChangeSubscription {
        counted.onChange(handler)
    }

    func cancel() {
        task?.cancel()
    }

    isolated deinit {
        task?.cancel()
    }
}
