import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches a folder (and its subfolders) for new photos — a phone's camera uploads synced by
/// Syncthing, Nextcloud or KDE Connect — and puts each finished, new photo in the library's scan
/// queue once (docs/decisions/0041-watched-photo-folder.md):
///
/// - new: its status changed (`ctime`: created, renamed in) after the folder's mark, which is the
///   first session's start, moved on as passes finish. Photos there before watching began are
///   not new; photos that arrived while no Crate ran are.
/// - finished: `PhotoArrivalRules` accepts the name, and `PhotoSettler` saw its size and mtime
///   unchanged for the settle time (injected clock).
/// - once: its SHA-256 is recorded with its queue item in one transaction; a known hash is a
///   duplicate, whichever process or name had it first.
///
/// `poll()` is one pass (tests drive it); `watch(onPass:)` runs passes on inotify wake-ups.
public final class PhotoFolderWatcher: Sendable {
    public static let defaultSettle: TimeInterval = 3

    /// The folder, as an absolute standardized path.
    public let folder: String
    public let settle: TimeInterval
    private let database: AppDatabase
    private let now: @Sendable () -> Date
    private let wallClock: @Sendable () -> Date
    private let state: Mutex<State>

    private struct State {
        var settler: PhotoSettler
        /// Files changed before this are old (nil until `begin()`).
        var mark: Date?
        /// Files hashed this session, with the look they had: skipped until they change.
        var handled: [String: PhotoSettler.Look] = [:]
    }

    /// - Parameters:
    ///   - now: the clock the settle time is counted on (tests advance it by hand).
    ///   - wallClock: the clock compared with files' ctime (the kernel's), for the mark.
    public init(folder: URL, database: AppDatabase, settle: TimeInterval = PhotoFolderWatcher.defaultSettle,
                now: @escaping @Sendable () -> Date = { Date() }, wallClock: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL.path
        self.settle = settle
        self.database = database
        self.now = now
        self.wallClock = wallClock
        state = Mutex(State(settler: PhotoSettler(settle: settle)))
    }

    /// Starts the session: checks the folder and reads (or sets) its mark. Returns the mark.
    @discardableResult
    public func begin() throws -> Date {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw PhotoWatchError.notAFolder(folder) }
        let mark = try database.beginWatchSession(folder: folder, at: wallClock())
        state.withLock { $0.mark = mark }
        return mark
    }

    /// Photos a previous (killed) session queued that are still waiting.
    public func leftovers() throws -> [WatchedArrival] {
        try database.pendingWatchedPhotos(folder: folder)
    }

    /// One pass: looks at every candidate, hashes the finished ones and queues the new ones.
    public func poll() throws -> PhotoWatchPass {
        if state.withLock({ $0.mark }) == nil { try begin() }
        let started = wallClock()
        let (mark, handled) = state.withLock { ($0.mark!, $0.handled) }
        var looks: [String: PhotoSettler.Look] = [:]
        var changedAt: [String: Double] = [:]
        for directory in DirectoryTree.directories(under: [folder]) {
            for (path, look, changed) in Self.candidates(in: directory) where changed >= mark.timeIntervalSince1970 {
                if handled[path] != look {
                    looks[path] = look
                    changedAt[path] = changed
                }
            }
        }
        let (finished, waiting) = state.withLock { state in
            let finished = state.settler.observe(looks, at: now())
            return (finished, state.settler.waiting)
        }
        var pass = PhotoWatchPass(waiting: waiting)
        var taken = Set<String>()
        for path in finished {
            guard let look = looks[path] else { continue }
            // An unreadable file is left alone until it changes (no retry every tick).
            guard let hash = try? ContentHash.sha256(of: URL(fileURLWithPath: path)) else {
                state.withLock { $0.handled[path] = look }
                taken.insert(path)
                continue
            }
            // Hashed, then looked at again: a file that changed while it was read waits once more.
            guard Self.look(at: path) == look else {
                pass.waiting += 1
                continue
            }
            if let item = try database.enqueueWatchedPhoto(hash: hash, path: path, folder: folder, at: wallClock()) {
                pass.arrivals.append(WatchedArrival(path: path, hash: hash, batchItemID: item))
            } else {
                pass.duplicates += 1
            }
            state.withLock { $0.handled[path] = look }
            taken.insert(path)
        }
        // Anything changed before this pass began, less the settle time and a minute's slack, has
        // been handled or is still watched here; a file still growing keeps a newer ctime. A file
        // seen but not taken yet (still settling) holds the mark: passes can be minutes apart (a
        // starved or suspended machine, the first pass after days closed), and a mark moved past
        // a settling file would make it old before it was ever queued.
        let settling = changedAt.filter { !taken.contains($0.key) }.values.min()
        var newMark = started.addingTimeInterval(-(settle + 60))
        if let settling { newMark = min(newMark, Date(timeIntervalSince1970: settling)) }
        if newMark > mark {
            try database.advanceWatchMark(folder: folder, to: newMark)
            state.withLock { $0.mark = max($0.mark ?? newMark, newMark) }
        }
        return pass
    }

    /// Runs passes until cancelled: at once, on inotify wake-ups, every `tick` while files are
    /// settling, and every `idle` otherwise (in case a wake-up was missed). `onPass` gets every
    /// pass that queued, skipped or waits for something. Errors of a pass are handed to `onError`
    /// and the watch goes on.
    public func watch(tick: Duration = .milliseconds(250), idle: Duration = .seconds(60),
                      onPass: @Sendable (PhotoWatchPass) async -> Void,
                      onError: @Sendable (Error) async -> Void = { _ in }) async throws {
        try begin()
        let woken = Mutex(true)
        let watcher = try? DirectoryWatcher { _ in woken.withLock { $0 = true } }
        defer { watcher?.close() }
        // The idle time is the clock's, not a count of ticks: on a loaded machine a 250 ms
        // sleep can last far longer.
        let clock = ContinuousClock()
        var lastPass = clock.now
        var settling = false
        // Where inotify cannot watch everything (the user's instances or watches used up), only
        // the idle passes see arrivals: then they come every few seconds, not every minute.
        var blind = false
        while !Task.isCancelled {
            let wake = woken.withLock { value in defer { value = false }; return value }
            if wake || settling || clock.now - lastPass >= (blind ? min(idle, .seconds(2)) : idle) {
                lastPass = clock.now
                // New subfolders get their own watch (inotify is not recursive).
                blind = !(watcher?.watch(DirectoryTree.directories(under: [folder]), budget: 1000).unwatched.isEmpty ?? false)
                do {
                    let pass = try poll()
                    settling = pass.waiting > 0
                    if !pass.arrivals.isEmpty || pass.duplicates > 0 { await onPass(pass) }
                } catch {
                    await onError(error)
                }
            }
            try await Task.sleep(for: tick)
        }
        throw CancellationError()
    }

    // MARK: - Looking at files

    /// Regular files of `directory` whose names may be photos, with their look and ctime (seconds).
    private static func candidates(in directory: String) -> [(String, PhotoSettler.Look, Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var result: [(String, PhotoSettler.Look, Double)] = []
        for name in names where PhotoArrivalRules.accepts(name) {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
            result.append((path, look(info), changed))
        }
        return result
    }

    private static func look(at path: String) -> PhotoSettler.Look? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return look(info)
    }

    private static func look(_ info: stat) -> PhotoSettler.Look {
        PhotoSettler.Look(size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
