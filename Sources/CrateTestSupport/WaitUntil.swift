import CrateCore

/// Something a test can wait on: it calls back on every change.
@MainActor
public protocol ChangeSignal {
    func onChange(_ handler: @escaping @MainActor () -> Void) -> ChangeSubscription
}

/// Ends a `ChangeSignal` subscription when cancelled or released.
@MainActor
public final class ChangeSubscription {
    private var cancelHandler: (() -> Void)?

    public init(cancel: @escaping () -> Void) {
        cancelHandler = cancel
    }

    public func cancel() {
        cancelHandler?()
        cancelHandler = nil
    }

    isolated deinit {
        cancelHandler?()
    }
}

extension ObservableValue: ChangeSignal {
    public func onChange(_ handler: @escaping @MainActor () -> Void) -> ChangeSubscription {
        let token = subscribe { _ in handler() }
        return ChangeSubscription { token.cancel() }
    }
}

/// Waits until `condition` holds, checking it now and after every change of `signals`. The
/// ceiling only catches a hang: it is far above any wait a busy machine makes. Returns how long
/// the wait took (printed by latency tests, never asserted), or nil when the ceiling passed.
@MainActor
public func waitUntil(_ signals: any ChangeSignal..., ceiling: Duration = .seconds(120),
                      _ condition: @escaping @MainActor () -> Bool) async -> Duration? {
    let start = ContinuousClock.now
    if condition() { return .zero }
    let waiter = Waiter()
    let held = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        waiter.continuation = continuation
        waiter.subscriptions = signals.map { signal in
            signal.onChange { if condition() { waiter.finish(true) } }
        }
        waiter.timer = Task { @MainActor in
            try? await Task.sleep(for: ceiling)
            waiter.finish(condition())
        }
    }
    return held ? ContinuousClock.now - start : nil
}

@MainActor
private final class Waiter {
    var continuation: CheckedContinuation<Bool, Never>?
    var subscriptions: [ChangeSubscription] = []
    var timer: Task<Void, Never>?

    func finish(_ held: Bool) {
        guard let continuation else { return }
        self.continuation = nil
        for subscription in subscriptions { subscription.cancel() }
        subscriptions = []
        timer?.cancel()
        continuation.resume(returning: held)
    }
}
