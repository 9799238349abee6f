/// The loop a self-refreshing store runs: load once, then once more after each batch of changes.
@MainActor
enum StoreObservation {
    /// Loads now, then again after every element of `changes`, one load at a time.
    ///
    /// `changes` buffers at most one element, so changes that arrive during a load cause exactly
    /// one more load afterwards, however many there were. The store is held weakly: the store
    /// cancels the returned task when it stops or goes away.
    static func reloading<Store: AnyObject>(_ store: Store, on changes: AsyncStream<Void>,
                                            _ load: @escaping @MainActor (Store) async -> Void) -> Task<Void, Never> {
        Task { @MainActor [weak store] in
            if let store { await load(store) }
            for await _ in changes {
                guard let store, !Task.isCancelled else { return }
                await load(store)
            }
        }
    }
}
