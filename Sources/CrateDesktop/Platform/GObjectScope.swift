import CGtk

/// The one place where Swift code handed to GLib is tied to a GObject's lifetime.
///
/// A view asks for the scope of its root widget (`GObjectScope.of(widget)`) and connects its
/// signal handlers, adds its timeouts and keeps its Swift objects through it. When the owner is
/// disposed (for a widget: when it is destroyed, e.g. its window closes) every handler is
/// disconnected, every source removed and every kept object released, each exactly once, so no
/// GLib callback can reach a Swift object that is gone. Everything is counted in `LiveObjects`.
///
/// The scope is stored on the owner itself (object data released at finalisation) and ended by a
/// weak reference (notified at dispose), so there is no table of raw pointers that could outlive
/// their objects.
@MainActor
final class GObjectScope {
    /// A timeout or idle added through a scope; pass it back to `remove(_:)`.
    struct Source: Hashable {
        fileprivate let id: UInt32
    }

    nonisolated private static let dataKey = "crate-gobject-scope"

    /// The owner: valid while `isEnded` is false.
    private let owner: UnsafeMutableRawPointer
    private var sources: Set<UInt32> = []
    private var kept: [AnyObject] = []
    private(set) var isEnded = false

    /// The scope of `owner`, created on first use.
    static func of(_ owner: UnsafeMutableRawPointer) -> GObjectScope {
        if let data = g_object_get_data(crate_object(owner), dataKey) {
            return CallbackBox<GObjectScope>.borrow(data)
        }
        let scope = GObjectScope(owner: owner)
        g_object_set_data_full(crate_object(owner), dataKey, CallbackBox.retain(scope)) { data in
            guard let data else { return }
            CallbackBox<GObjectScope>.release(data)
        }
        g_object_weak_ref(crate_object(owner), { _, object in
            guard let object, let data = g_object_get_data(object, GObjectScope.dataKey) else { return }
            let scope = CallbackBox<GObjectScope>.borrow(data)
            MainActor.assumeIsolated { scope.end() }
        }, nil)
        return scope
    }

    static func of(_ owner: OpaquePointer) -> GObjectScope {
        of(UnsafeMutableRawPointer(owner))
    }

    private init(owner: UnsafeMutableRawPointer) {
        self.owner = owner
        LiveObjects.scopes.add(1, ordering: .relaxed)
    }

    deinit {
        LiveObjects.scopes.subtract(1, ordering: .relaxed)
    }

    // MARK: - Signals

    /// Connects `handler` to `signal` on `instance` (the owner or anything inside it) until
    /// either is disposed.
    @discardableResult
    func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        guard !isEnded else { return 0 }
        return GSignal.connect(instance, signal, owner: owner, handler)
    }

    /// Signals with one pointer argument (list items, `notify::`, action parameters).
    @discardableResult
    func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        guard !isEnded else { return 0 }
        return GSignal.connect(instance, signal, owner: owner, handler)
    }

    @discardableResult
    func connect(_ instance: OpaquePointer, _ signal: String, _ handler: @escaping @MainActor () -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, handler)
    }

    @discardableResult
    func connect(_ instance: OpaquePointer, _ signal: String, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        connect(UnsafeMutableRawPointer(instance), signal, handler)
    }

    /// `GApplication::open` with the files as paths.
    @discardableResult
    func connectOpen(_ handler: @escaping @MainActor ([String]) -> Void) -> gulong {
        guard !isEnded else { return 0 }
        return GSignal.connectOpen(owner, owner: owner, handler)
    }

    // MARK: - Sources

    /// Calls `tick` every `milliseconds` while it returns true and the scope lasts.
    @discardableResult
    func every(milliseconds: UInt32, _ tick: @escaping @MainActor () -> Bool) -> Source? {
        guard !isEnded else { return nil }
        let entry = SourceEntry(scope: self, tick: tick)
        let id = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, SourceEntry.dispatch, CallbackBox.retain(entry), SourceEntry.destroyed)
        entry.id = id
        sources.insert(id)
        LiveObjects.sources.add(1, ordering: .relaxed)
        return Source(id: id)
    }

    /// Calls `action` once after `seconds`, unless removed or the scope ends first.
    @discardableResult
    func after(seconds: UInt32, _ action: @escaping @MainActor () -> Void) -> Source? {
        every(milliseconds: seconds * 1000) {
            action()
            return false
        }
    }

    /// Stops a source; harmless if it already ran out or was removed.
    func remove(_ source: Source?) {
        guard let source, sources.contains(source.id) else { return }
        g_source_remove(source.id)
    }

    // MARK: - Objects

    /// Keeps `object` (typically the Swift view that owns the widget) alive until the scope ends.
    func keepAlive(_ object: AnyObject) {
        guard !isEnded else { return }
        kept.append(object)
        LiveObjects.keptObjects.add(1, ordering: .relaxed)
    }

    /// A `user_data` pointer to `object` for C code whose callbacks are disconnected when the owner
    /// is disposed (see `crate_install_drop_target`): the object is kept until then.
    func pointer(keeping object: AnyObject) -> UnsafeMutableRawPointer {
        keepAlive(object)
        return Unmanaged.passUnretained(object).toOpaque()
    }

    // MARK: - Private

    /// Runs once, from the owner's dispose; GLib has already dropped the signal handlers it watched.
    private func end() {
        guard !isEnded else { return }
        isEnded = true
        // Removing a source runs its destroy notify, which calls `sourceEnded`: iterate a copy.
        for id in sources { g_source_remove(id) }
        sources.removeAll()
        let released = kept
        kept.removeAll()
        LiveObjects.keptObjects.subtract(released.count, ordering: .relaxed)
        // `released` goes here, after the scope's own state is consistent (a deinit may call back).
    }

    fileprivate func sourceEnded(_ id: UInt32) {
        sources.remove(id)
    }

    /// What GLib holds as a source's `user_data`. Main-actor bound: GLib runs our sources on
    /// the main loop, which is the main thread.
    @MainActor
    private final class SourceEntry {
        weak var scope: GObjectScope?
        let tick: @MainActor () -> Bool
        var id: UInt32 = 0

        init(scope: GObjectScope, tick: @escaping @MainActor () -> Bool) {
            self.scope = scope
            self.tick = tick
        }

        nonisolated static let dispatch: GSourceFunc = { data in
            guard let data else { return 0 }
            let entry = CallbackBox<SourceEntry>.borrow(data)
            return MainActor.assumeIsolated { entry.tick() ? 1 : 0 }
        }

        nonisolated static let destroyed: GDestroyNotify = { data in
            guard let data else { return }
            let entry = CallbackBox<SourceEntry>.take(data)
            LiveObjects.sources.subtract(1, ordering: .relaxed)
            MainActor.assumeIsolated { entry.scope?.sourceEnded(entry.id) }
        }
    }
}
