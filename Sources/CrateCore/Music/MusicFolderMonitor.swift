import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the running window watches the music folders, for `crate music status` (another process):
/// written to `<state>/music-watch.json` by the window, removed when it stops.
public struct MusicWatchStatus: Codable, Equatable, Sendable {
    /// The window's process (a status whose process is gone is stale and ignored).
    public var pid: Int32
    public var directories: Int
    public var watched: Int
    public var unwatched: Int
    /// Watches Crate allows itself, and the user's limit it was taken from (nil: unreadable).
    public var budget: Int
    public var maxUserWatches: Int?
    /// The kernel refused a watch before the budget was used (other programs hold the rest).
    public var kernelLimitReached: Bool
    /// How often the unwatched part is re-indexed.
    public var rescanSeconds: Int
    /// Why nothing can be watched (no inotify instance), in the user's words.
    public var problem: String?

    public init(pid: Int32, directories: Int, watched: Int, unwatched: Int, budget: Int, maxUserWatches: Int?,
                kernelLimitReached: Bool, rescanSeconds: Int) {
        self.pid = pid
        self.directories = directories
        self.watched = watched
        self.unwatched = unwatched
        self.budget = budget
        self.maxUserWatches = maxUserWatches
        self.kernelLimitReached = kernelLimitReached
        self.rescanSeconds = rescanSeconds
    }

    public static func url(stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent("music-watch.json")
    }

    /// The window's status, or nil when no window is running (no file, or its process is gone).
    public static func read(stateDirectory: URL) -> MusicWatchStatus? {
        guard let data = FileManager.default.contents(atPath: url(stateDirectory: stateDirectory).path),
              let status = try? JSONDecoder().decode(MusicWatchStatus.self, from: data) else { return nil }
        guard status.pid > 0, kill(status.pid, 0) == 0 || errno == EPERM else { return nil }
        return status
    }

    func write(stateDirectory: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return }
        try? FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        try? data.write(to: Self.url(stateDirectory: stateDirectory), options: .atomic)
    }

    /// What `crate music status` says when no window is running.
    public static var notRunningSentence: String {
        L10n.tr("Not watched for changes: the window is not running (run crate music scan after a change).")
    }

    /// One sentence for `crate music status`.
    public var sentence: String {
        if let problem { return problem }
        if unwatched == 0 {
            return L10n.plural("Watched for changes: all %@ folder.", "Watched for changes: all %@ folders.", directories, directories)
        }
        let why = kernelLimitReached
            ? L10n.tr("the system's inotify watches are used up by other programs")
            : L10n.tr("Crate's share of the system's inotify watches is %@ of %@", budget, maxUserWatches.map(String.init) ?? "?")
        return L10n.tr("Watched for changes: %@ of %@ folders (%@); the other %@ are re-indexed every %@ s.",
                       watched, directories, why, unwatched, rescanSeconds)
    }
}

/// Watches the music folders while the window runs and re-indexes them (incrementally, through
/// the `MusicIndexStore`) once things have been quiet for `debounce`. Every directory of the
/// folders gets an inotify watch (inotify is not recursive), up to a budget: a share of the
/// user's `max_user_watches` (`DirectoryWatcher.budget`). Directories beyond it, or refused by
/// the kernel, are covered by a periodic re-index instead (cheap: unchanged directories and files
/// are skipped by mtime and size). After each re-index the directories are listed again, so a
/// new album folder gets its own watch.
@MainActor
public final class MusicFolderMonitor {
    public let store: MusicIndexStore
    /// What is watched now (nil before the first listing).
    public let status = ObservableValue<MusicWatchStatus?>(nil)
    /// Test events ("music-folder watching N", "music-folder changed; re-indexing").
    public var onEvent: ((String) -> Void)?

    private let folders: @MainActor () -> [String]
    private let debounce: Duration
    private let budget: Int
    private let maxUserWatches: Int?
    private let rescanInterval: Duration
    private let stateDirectory: URL?
    private var watcher: DirectoryWatcher?
    private var generation = 0
    private var settleTask: Task<Void, Never>?
    private var rescanTask: Task<Void, Never>?
    private var token: ObservationToken?
    private var lastCompleted = 0
    private var isStopped = false
    private var listingTask: Task<Void, Never>?
    private var relistPending = false

    /// - Parameters:
    ///   - environment: `CRATE_MUSIC_WATCH_BUDGET` (watches) and `CRATE_MUSIC_RESCAN_SECONDS`
    ///     (default 120) override the budget and the re-index interval of the unwatched part.
    ///   - stateDirectory: where `music-watch.json` is written for `crate music status` (nil: not written).
    public init(store: MusicIndexStore, folders: @escaping @MainActor () -> [String], debounce: Duration = .milliseconds(1500),
                environment: [String: String] = ProcessInfo.processInfo.environment, stateDirectory: URL? = nil,
                maxUserWatches: Int? = DirectoryWatcher.maxUserWatches()) {
        self.store = store
        self.folders = folders
        self.debounce = debounce
        self.maxUserWatches = maxUserWatches
        budget = DirectoryWatcher.budget(environment: environment, maxUserWatches: maxUserWatches)
        let seconds = environment["CRATE_MUSIC_RESCAN_SECONDS"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 120
        rescanInterval = .milliseconds(Int(seconds * 1000))
        self.stateDirectory = stateDirectory
    }

    /// Indexes once now (the folder may have changed while the app was closed), then watches.
    public func start() {
        isStopped = false
        store.reindex(folders: folders())
        token = store.state.subscribe { [weak self] state in
            guard let self, !state.isIndexing, state.completed != self.lastCompleted else { return }
            self.lastCompleted = state.completed
            self.rewatch()
        }
        rescanTask = Task { [weak self, rescanInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: rescanInterval)
                guard let self, !Task.isCancelled, !self.isStopped else { return }
                self.rescanUnwatched()
            }
        }
    }

    /// The folders changed (Preferences): index them and watch them instead.
    public func foldersChanged() {
        store.reindex(folders: folders())
    }

    /// Closes the inotify instance and forgets the status file (idempotent).
    public func stop() {
        isStopped = true
        settleTask?.cancel()
        rescanTask?.cancel()
        listingTask?.cancel()
        token = nil
        watcher?.close()
        watcher = nil
        if let stateDirectory, status.value?.pid == getpid() {
            try? FileManager.default.removeItem(at: MusicWatchStatus.url(stateDirectory: stateDirectory))
        }
    }

    /// The periodic pass for directories without a watch: re-index when some are unwatched.
    /// Returns whether a re-index was asked for.
    @discardableResult
    public func rescanUnwatched() -> Bool {
        guard let status = status.value, status.unwatched > 0, !isStopped else { return false }
        onEvent?("music-folder rescan of \(status.unwatched) unwatched")
        store.reindex(folders: folders())
        return true
    }

    /// Something changed under a watched directory: re-index after `debounce` of quiet.
    func changed(_ path: String) {
        guard !isStopped else { return }
        generation += 1
        let mine = generation
        settleTask?.cancel()
        settleTask = Task { [weak self, debounce] in
            try? await Task.sleep(for: debounce)
            guard let self, !Task.isCancelled, mine == self.generation, !self.isStopped else { return }
            self.onEvent?("music-folder changed; re-indexing")
            self.store.reindex(folders: self.folders())
        }
    }

    /// Lists the folders' directories and watches them, within the budget, off the main thread
    /// (a first listing of a big tree adds tens of thousands of watches). One listing at a time:
    /// a request during one makes exactly one more, so an older listing never undoes a newer one.
    private func rewatch() {
        if listingTask != nil {
            relistPending = true
            return
        }
        listingTask = Task { [weak self] in
            while let self, !self.isStopped {
                self.relistPending = false
                let roots = self.folders(), budget = self.budget
                var problem: String?
                if self.watcher == nil {
                    do {
                        self.watcher = try DirectoryWatcher { [weak self] path in
                            Task { @MainActor [weak self] in self?.changed(path) }
                        }
                    } catch {
                        // Every directory is then covered by the periodic re-index.
                        problem = UserMessage.text(for: error)
                    }
                }
                let watcher = self.watcher
                // Listing and watching thousands of folders blocks: a thread of its own, off the task pool.
                guard let listed = try? await BlockingWork.run({ () -> (Int, DirectoryWatcher.Result) in
                    let directories = DirectoryTree.directories(under: roots)
                    let result = watcher?.watch(directories, budget: budget)
                        ?? DirectoryWatcher.Result(watched: 0, unwatched: directories, kernelLimitReached: false)
                    return (directories.count, result)
                }) else { break }
                let (directories, result) = listed
                guard !self.isStopped else { break }
                self.publish(directories: directories, result: result, problem: problem)
                if !self.relistPending { break }
            }
            self?.listingTask = nil
        }
    }

    private func publish(directories: Int, result: DirectoryWatcher.Result, problem: String?) {
        let seconds = Int((Double(rescanInterval.components.seconds) + Double(rescanInterval.components.attoseconds) / 1e18).rounded())
        var now = MusicWatchStatus(pid: getpid(), directories: directories, watched: result.watched, unwatched: result.unwatched.count,
                                   budget: budget, maxUserWatches: maxUserWatches, kernelLimitReached: result.kernelLimitReached,
                                   rescanSeconds: max(1, seconds))
        now.problem = problem
        status.set(now)
        if let stateDirectory { now.write(stateDirectory: stateDirectory) }
        onEvent?("music-folder watching \(result.watched) unwatched \(result.unwatched.count)")
    }
}
