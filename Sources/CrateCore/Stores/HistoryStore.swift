import Foundation

/// What the history list shows.
public struct HistoryState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    public var entries: [HistoryEntry] = []
    /// Photos without a scan (failed, or waiting for the network or a key), newest first: listed
    /// above the scans with Retry and Remove.
    public var unscanned: [UnscannedPhoto] = []
    public var phase: Phase = .loading
    /// The scan just deleted, kept so "Undo" can put it back.
    public var undoableDeletion: HistoryEntry?
    /// A message for the user (e.g. a failed delete); cleared by the next successful intent.
    public var errorMessage: String?
    /// More (older) scans exist than `entries` holds; `loadMore()` fetches the next page.
    public var hasMore = false

    public var isEmpty: Bool { phase == .loaded && entries.isEmpty }

    public init() {}
}

/// The scan history, newest first. Widgets read `state` and call the intent methods.
///
/// After `start()` the store reloads itself whenever scans or albums change, whoever wrote them.
@MainActor
public final class HistoryStore {
    /// Reads `limit` entries, starting after the given scan (nil: from the newest).
    typealias PageReader = @Sendable (_ limit: Int, _ after: Scan?) async throws -> [HistoryEntry]

    /// The tables a history entry is read from.
    public static let observedTables: Set<String> = [Scan.databaseTableName, Album.databaseTableName, BatchItem.databaseTableName]

    public let state = ObservableValue(HistoryState())
    private let database: AppDatabase
    private let pageSize: Int
    private var isLoadingMore = false
    /// The newest page and the photos without a scan, read again after every change.
    private lazy var query = ObservedQuery<Answer>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    /// Loads started so far (tests count them to check that bursts of changes are coalesced).
    var reloadCount: Int { query.readCount }
    /// How pages are read; tests replace it to control when a read finishes.
    var readPage: PageReader
    /// How the photos without a scan are read.
    var readUnscanned: @Sendable () async throws -> [UnscannedPhoto]

    /// What one reload reads.
    private struct Answer: Sendable {
        var entries: [HistoryEntry]
        var unscanned: [UnscannedPhoto]
        var limit: Int
    }

    /// History is read a page at a time (a page query stays in the low milliseconds at 100 000
    /// scans); the list asks for the next page as its end scrolls into view.
    public init(database: AppDatabase, pageSize: Int = 200) {
        self.database = database
        self.pageSize = pageSize
        readPage = { limit, after in try database.read(HistoryPageRequest(limit: limit, after: after)) }
        readUnscanned = { try database.read(UnscannedPhotosRequest()) }
    }

    /// Loads the history and keeps it current until `stop()`. Calling it again does nothing.
    public func start() {
        query.start()
    }

    /// Stops following the database (the state keeps its last value).
    public func stop() {
        query.stop()
    }

    /// Loads the history from the database (off the main thread).
    public func reload() async {
        await query.refresh()
    }

    /// Reads at least as many entries as are shown, so a refresh does not shrink a list the
    /// user has scrolled through.
    private func makeRead() -> ObservedQuery<Answer>.Read {
        let (readPage, readUnscanned) = (self.readPage, self.readUnscanned)
        let limit = max(pageSize, state.value.entries.count)
        return { Answer(entries: try await readPage(limit, nil), unscanned: try await readUnscanned(), limit: limit) }
    }

    private func apply(_ result: Result<Answer, any Error>) {
        switch result {
        case .success(let answer):
            var next = state.value
            next.entries = answer.entries
            next.unscanned = answer.unscanned
            next.phase = .loaded
            next.hasMore = answer.entries.count == answer.limit
            // A refresh after a change elsewhere often finds the same list: no redraw then.
            if next != state.value { state.set(next) }
        case .failure(let error):
            state.update { $0.phase = .failed(Self.describe(error)) }
        }
    }

    /// Appends the next page of older scans.
    public func loadMore() async {
        guard state.value.hasMore, !isLoadingMore else { return }
        isLoadingMore = true
        defer { isLoadingMore = false }
        let current = query.generation
        let limit = pageSize
        let last = state.value.entries.last?.scan
        do {
            let readPage = self.readPage
            let page = try await Task.detached(priority: .userInitiated) { try await readPage(limit, last) }.value
            // A reload meanwhile replaced the entries this page continues: drop it; the list
            // asks again when its end is still in view.
            guard current == query.generation else { return }
            state.update {
                $0.entries.append(contentsOf: page)
                $0.hasMore = page.count == limit
            }
        } catch {
            guard current == query.generation else { return }
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Deletes a scan; it can be restored with `undoDelete()` until the next delete.
    public func delete(scanID: Int64) async {
        let database = self.database
        let removed = state.value.entries.first { $0.id == scanID }
        do {
            _ = try await Task.detached { try database.deleteScan(id: scanID) }.value
            query.invalidate()  // A read that started before the delete must not bring the scan back.
            state.update {
                $0.entries.removeAll { $0.id == scanID }
                $0.undoableDeletion = removed
                $0.errorMessage = nil
            }
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Restores a deleted scan: `entry` (an Undo toast's own), or the one removed by the last
    /// `delete(scanID:)`. The entry reappears at once; the refresh that follows the write
    /// confirms it. Restoring a scan that is already back does nothing.
    public func undoDelete(_ entry: HistoryEntry? = nil) async {
        guard let entry = entry ?? state.value.undoableDeletion else { return }
        let database = self.database
        do {
            try await Task.detached { try database.restoreScan(entry.scan) }.value
            // A read that started before the restore must not hide the scan again.
            query.invalidate()
            state.update {
                if $0.undoableDeletion?.id == entry.id { $0.undoableDeletion = nil }
                if !$0.entries.contains(where: { $0.id == entry.id }) {
                    let index = $0.entries.firstIndex { Self.isNewer(entry.scan, than: $0.scan) } ?? $0.entries.endIndex
                    $0.entries.insert(entry, at: index)
                }
                $0.errorMessage = nil
            }
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Forgets a photo that has no scan (its row's Remove): it leaves the queue and History.
    public func remove(unscannedPhotoID id: Int64) async {
        let database = self.database
        do {
            _ = try await Task.detached { try database.removeUnscannedPhoto(id: id) }.value
            state.update {
                $0.unscanned.removeAll { $0.id == id }
                $0.errorMessage = nil
            }
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Forgets the undoable deletion (the undo toast timed out).
    public func commitDeletion() {
        state.update { $0.undoableDeletion = nil }
    }

    /// The history order: newest scan first, the larger id first among equal times.
    private static func isNewer(_ scan: Scan, than other: Scan) -> Bool {
        (scan.scannedAt, scan.id ?? 0) > (other.scannedAt, other.id ?? 0)
    }

    private static func describe(_ error: Error) -> String {
        UserMessage.text(for: error)
    }
}
