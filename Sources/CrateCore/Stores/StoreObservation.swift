/// What makes a store refresh itself: load once, then once more after each batch of changes to
/// the tables it shows. A store owns one and calls `start`/`stop`; releasing the store ends it.
@MainActor
final class StoreObservation {
    private var task: Task<Void, Never>?

    var isRunning: Bool { task != nil }

    isolated deinit {
        task?.cancel()
    }

    /// Loads now, then again after every element of `changes`, one load at a time. Calling it
    /// while running does nothing.
    ///
    /// `changes` buffers at most one element, so changes that arrive during a load cause exactly
    /// one more load afterwards, however many there were. The store is held weakly.
    func start<Store: AnyObject>(_ store: Store, on changes: @autoclosure () -> AsyncStream<Void>,
                                 _ load: @escaping @MainActor (Store) async -> Void) {
        guard task == nil else { return }
        let changes = changes()
        task = Task { @MainActor [weak store] in
            if let store { await load(store) }
            for await _ in changes {
                guard let store, !Task.isCancelled else { return }
                await load(store)
            }
        }
    }

    /// Stops following the database (the store keeps its last state).
    func stop() {
        task?.cancel()
        task = nil
    }
}
