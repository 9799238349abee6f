import CGtk
import CrateCore
import Foundation

/// Watches the music folders while the app runs (a `GFileMonitor` on every directory, since
/// inotify watches are not recursive) and, once things have been quiet for `debounce`,
/// re-indexes incrementally through the `MusicIndexStore`: an album copied in or deleted
/// appears in or leaves the CD Wallet and the crate's matches without a restart. After each
/// re-index the watched directories are listed again (a new album folder gets its own watch).
@MainActor
final class MusicFolderMonitor {
    let store: MusicIndexStore
    private let folders: @MainActor () -> [String]
    private let debounce: Duration
    /// More directories than this are not watched one by one (inotify's default limit is 8192
    /// per user, shared with other programs); the top levels are, in breadth-first order.
    nonisolated static let maximumWatches = 4000
    private var monitors: [String: UnsafeMutablePointer<GFileMonitor>] = [:]
    private var generation = 0
    private var settleTask: Task<Void, Never>?
    private var token: ObservationToken?
    private var lastCompleted = 0
    private var isStopped = false

    init(store: MusicIndexStore, folders: @escaping @MainActor () -> [String], debounce: Duration = .milliseconds(1500)) {
        self.store = store
        self.folders = folders
        self.debounce = debounce
    }

    /// Indexes once now (the folder may have changed while the app was closed), then watches.
    func start() {
        store.reindex(folders: folders())
        token = store.state.subscribe { [weak self] state in
            guard let self, !state.isIndexing, state.completed != self.lastCompleted else { return }
            self.lastCompleted = state.completed
            self.rewatch()
        }
    }

    /// The folders changed (Preferences): index them and watch them instead.
    func foldersChanged() {
        store.reindex(folders: folders())
    }

    func stop() {
        isStopped = true
        settleTask?.cancel()
        token = nil
        for (_, monitor) in monitors { Self.release(monitor) }
        monitors = [:]
    }

    /// Something changed under a watched directory: re-index after `debounce` of quiet.
    fileprivate func changed(_ path: String, event: GFileMonitorEvent) {
        switch event {
        case G_FILE_MONITOR_EVENT_CHANGED, G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED, G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
            // A file still being written (CHANGES_DONE_HINT follows), or nothing the index reads.
            return
        default:
            break
        }
        generation += 1
        let mine = generation
        settleTask?.cancel()
        settleTask = Task { [weak self, debounce] in
            try? await Task.sleep(for: debounce)
            guard let self, !Task.isCancelled, mine == self.generation, !self.isStopped else { return }
            TestEvents.note("music-folder changed; re-indexing")
            self.store.reindex(folders: self.folders())
        }
    }

    /// Lists the folders' directories (off the main thread) and watches exactly those.
    private func rewatch() {
        let roots = folders()
        Task { [weak self] in
            let directories = await Task.detached(priority: .utility) { Self.directories(under: roots, limit: Self.maximumWatches) }.value
            guard let self, !self.isStopped else { return }
            self.watch(Set(directories))
        }
    }

    private func watch(_ directories: Set<String>) {
        for (path, monitor) in monitors where !directories.contains(path) {
            Self.release(monitor)
            monitors[path] = nil
        }
        for path in directories where monitors[path] == nil {
            let file = g_file_new_for_path(path)!
            var error: UnsafeMutablePointer<GError>?
            let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error)
            g_object_unref(UnsafeMutableRawPointer(file))
            guard let monitor else {
                g_clear_error(&error)
                continue
            }
            connect(monitor)
            monitors[path] = monitor
        }
        TestEvents.note("music-folder watching \(monitors.count)")
    }

    private func connect(_ monitor: UnsafeMutablePointer<GFileMonitor>) {
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, UnsafeMutableRawPointer?) -> Void = { _, file, _, event, data in
            guard let data else { return }
            var path = ""
            if let file, let raw = g_file_get_path(file) {
                path = String(cString: raw)
                g_free(raw)
            }
            let box = Unmanaged<MonitorBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.owner?.changed(path, event: event) }
        }
        let box = Unmanaged.passRetained(MonitorBox(self)).toOpaque()
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<MonitorBox>.fromOpaque(data).release()
        }
        _ = crate_signal_connect_owned(UnsafeMutableRawPointer(monitor), "changed", unsafeBitCast(callback, to: GCallback.self), box, release, nil)
    }

    private static func release(_ monitor: UnsafeMutablePointer<GFileMonitor>) {
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }

    /// The directories under `roots` (roots first, breadth-first, symlinks not followed), at most `limit`.
    nonisolated static func directories(under roots: [String], limit: Int) -> [String] {
        var result: [String] = []
        var queue = roots
        var index = 0
        let manager = FileManager.default
        while index < queue.count, result.count < limit {
            let directory = queue[index]
            index += 1
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            result.append(directory)
            guard let names = try? manager.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = directory + "/" + name
                guard let attributes = try? manager.attributesOfItem(atPath: path),
                      attributes[.type] as? FileAttributeType == .typeDirectory else { continue }
                queue.append(path)
            }
        }
        return result
    }
}

/// Lets a monitor's signal reach the watcher without keeping it alive.
private final class MonitorBox {
    weak var owner: MusicFolderMonitor?
    init(_ owner: MusicFolderMonitor) { self.owner = owner }
}
