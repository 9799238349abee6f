import Foundation
import Synchronization

/// The window's "Scan photos that arrive in…": while the setting is on, watches the folder and
/// scans each new photo through the library's queue (History shows them like dropped photos);
/// photos that are not covers are set aside quietly. `lastRun` changes once per run of arrivals,
/// for one toast (docs/decisions/0041-watched-photo-folder.md).
///
/// Photos a killed session left in the queue are resumed by `AppModel.start` with the dropped ones.
@MainActor
public final class PhotoFolderMonitor {
    /// The last run's summary (nil until a run scanned or set aside something).
    public let lastRun = ObservableValue<PhotoFolderRun?>(nil)
    /// The folder watched now (nil: off).
    public let watching = ObservableValue<String?>(nil)
    /// Why the folder cannot be watched (it is gone, say), in the user's words.
    public let problem = ObservableValue<String?>(nil)
    /// Test events ("photo-folder watching PATH", "photo-folder run N scanned M set aside").
    public var onEvent: ((String) -> Void)?

    private let database: AppDatabase
    private let settings: @MainActor () -> Settings
    private let scanner: @MainActor () -> BatchScanning?
    private let settle: TimeInterval
    private var task: Task<Void, Never>?
    private var runs = 0

    /// - Parameters:
    ///   - settings: the settings the process runs with now (read at each `settingsChanged`).
    ///   - scanner: the current scan pipeline (services are rebuilt when Preferences save).
    ///   - settle: `CRATE_WATCH_SETTLE_SECONDS` overrides it for tests.
    public init(database: AppDatabase, settings: @escaping @MainActor () -> Settings, scanner: @escaping @MainActor () -> BatchScanning?,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.database = database
        self.settings = settings
        self.scanner = scanner
        settle = environment["CRATE_WATCH_SETTLE_SECONDS"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil } ?? PhotoFolderWatcher.defaultSettle
    }

    /// Starts, moves or stops the watch as the settings now say.
    public func settingsChanged() {
        let current = settings()
        let folder = current.watchPhotoFolder ? current.photoFolder : nil
        guard folder != watching.value else { return }
        stop()
        guard let folder else { return }
        start(folder)
    }

    public func stop() {
        task?.cancel()
        task = nil
        watching.set(nil)
    }

    private func start(_ folder: String) {
        watching.set(folder)
        problem.set(nil)
        let watcher = PhotoFolderWatcher(folder: URL(fileURLWithPath: folder), database: database, settle: settle)
        let queue = BatchQueue(database: database)
        onEvent?("photo-folder watching \(watcher.folder)")
        let folderPath = watcher.folder
        let onPass: @Sendable (PhotoWatchPass) async -> Void = { [weak self] pass in
            await self?.scan(pass.arrivals, queue: queue, folder: folderPath)
        }
        let onError: @Sendable (Error) async -> Void = { [weak self] error in
            await self?.problem.set(UserMessage.text(for: error))
        }
        task = Task {
            do {
                try await watcher.watch(onPass: onPass, onError: onError)
            } catch is CancellationError {
            } catch {
                await onError(error)
            }
        }
    }

    /// Scans one run of arrivals, then publishes its summary.
    private func scan(_ arrivals: [WatchedArrival], queue: BatchQueue, folder: String) async {
        // No pipeline (the window is closing): the photos wait in the queue for the next start.
        guard !arrivals.isEmpty, let scanner = scanner() else { return }
        let runner = WatchedPhotoScanner(queue: queue, scanner: scanner)
        let counts = RunCounts()
        do {
            try await runner.scan(arrivals) { outcome in counts.add(outcome) }
        } catch is CancellationError {
            return
        } catch {
            // A wrong key, the network: the photos wait in the queue (History says why).
            problem.set(UserMessage.text(for: error))
        }
        let (scanned, setAside) = counts.value
        guard scanned + setAside > 0 else { return }
        runs += 1
        lastRun.set(PhotoFolderRun(scanned: scanned, setAside: setAside, run: runs, folderName: PathBytes.displayName((folder as NSString).lastPathComponent)))
        onEvent?("photo-folder run \(scanned) scanned \(setAside) set aside")
    }
}

/// Counts a run's outcomes from the scanner's (any-thread) report.
private final class RunCounts: Sendable {
    private let counts = Mutex((scanned: 0, setAside: 0))

    func add(_ outcome: BatchOutcome) {
        counts.withLock {
            switch outcome {
            case .scanned: $0.scanned += 1
            case .failed: $0.setAside += 1
            case .skipped: break
            }
        }
    }

    var value: (Int, Int) { counts.withLock { ($0.scanned, $0.setAside) } }
}
