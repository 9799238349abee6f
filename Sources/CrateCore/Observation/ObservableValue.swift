/// A small, main-actor-confined value holder that tells its subscribers about every change.
///
/// Stores own these for their state; widgets subscribe and redraw. Every assignment notifies
/// (nothing is coalesced), in subscription order. Subscribing returns an `ObservationToken`:
/// the subscription lasts until the token is cancelled or released.
@MainActor
public final class ObservableValue<Value> {
    public private(set) var value: Value
    private var subscribers: [UInt64: (Value) -> Void] = [:]
    private var nextID: UInt64 = 0

    public init(_ value: Value) {
        self.value = value
    }

    /// Replaces the value and notifies every subscriber.
    public func set(_ newValue: Value) {
        value = newValue
        // Copy first: a handler may cancel its own (or another) subscription while we iterate.
        let handlers = subscribers.sorted { $0.key < $1.key }.map(\.value)
        for handler in handlers { handler(newValue) }
    }

    /// Changes the value in place and notifies once.
    public func update(_ change: (inout Value) -> Void) {
        var copy = value
        change(&copy)
        set(copy)
    }

    /// Calls `handler` on every later change. With `initial`, also calls it now with the current value.
    public func subscribe(initial: Bool = false, _ handler: @escaping (Value) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        subscribers[id] = handler
        if initial { handler(value) }
        return ObservationToken { [weak self] in
            // Take the handler out, then let it go once the dictionary is no longer being
            // changed: releasing it may release another token of this value, whose cancel
            // would change the dictionary inside this change (an exclusivity violation).
            let removed = self?.subscribers.removeValue(forKey: id)
            withExtendedLifetime(removed) {}
        }
    }

    /// Number of live subscriptions (for tests and leak checks).
    public var subscriberCount: Int { subscribers.count }
}

/// Cancels a subscription when `cancel()` is called or when the token is released.
@MainActor
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    /// Keeps the token alive as long as `bag` is.
    public func store(in bag: inout [ObservationToken]) {
        bag.append(self)
    }

    isolated deinit {
        onCancel?()
    }
}
