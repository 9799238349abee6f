import Foundation

/// What the window knows about the music folder index: whether a re-index is running and what
/// the last one found.
public struct MusicIndexState: Equatable, Sendable {
    public var folders: [String] = []
    public var isIndexing = false
    /// Re-indexes finished in this process (UI tests and the file monitor's tests count them).
    public var completed = 0
    public var lastReport: MusicScanReport?
    public var errorMessage: String?

    public init() {}

    /// "Indexing your music folder…", or what the last re-index found.
    public var summary: String {
        if isIndexing { return L10n.tr("Indexing your music folder…") }
        if let errorMessage { return errorMessage }
        guard let report = lastReport else { return L10n.tr("Not indexed yet in this session.") }
        var text = "\(report.files) files, \(report.albums) albums"
        if report.added + report.updated + report.removed > 0 {
            text += " (\(report.added) added, \(report.updated) changed, \(report.removed) removed)"
        }
        if !report.missingFolders.isEmpty { text += "; not found: " + report.missingFolders.map(PathBytes.displayName).joined(separator: ", ") }
        return text
    }
}

/// Re-indexes the music folders in the background (incremental: unchanged directories are not
/// listed again, unchanged files not read), one run at a time: a request while a run is going
/// makes exactly one more run afterwards, with the folders as they are then. The stores that
/// show music (the CD Wallet, the detail pane's files) follow the database, so they update
/// themselves when a run writes.
@MainActor
public final class MusicIndexStore {
    public let state = ObservableValue(MusicIndexState())
    private let database: AppDatabase
    private var pending = false
    private var running: Task<Void, Never>?
    /// How a run indexes; tests replace it to hold a run open.
    var index: @Sendable ([String], AppDatabase) throws -> MusicScanReport = { try MusicIndexer.scan(folders: $0, database: $1) }

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Indexes `folders` now, or once more after the run under way.
    public func reindex(folders: [String]) {
        state.update { $0.folders = folders }
        if running != nil {
            pending = true
            return
        }
        running = Task { [weak self] in await self?.run() }
    }

    /// Waits until no run is going or pending (tests).
    public func settle() async {
        while let running { await running.value; if self.running == running { self.running = nil } }
    }

    private func run() async {
        repeat {
            pending = false
            let folders = state.value.folders
            state.update { $0.isIndexing = true }
            let database = self.database, index = self.index
            // A thread of its own: a scan of a big tree blocks for minutes, and on the two threads
            // Swift's task pool has on a two-core machine every other task would wait behind it.
            let result: Result<MusicScanReport, any Error>
            do {
                result = .success(try await BlockingWork.run { try index(folders, database) })
            } catch {
                result = .failure(error)
            }
            state.update {
                $0.isIndexing = false
                $0.completed += 1
                switch result {
                case .success(let report):
                    $0.lastReport = report
                    $0.errorMessage = nil
                case .failure(let error):
                    $0.errorMessage = UserMessage.text(for: error)
                }
            }
        } while pending
        running = nil
    }
}
