import Foundation

/// What the history list shows.
public struct HistoryState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    public var entries: [HistoryEntry] = []
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
@MainActor
public final class HistoryStore {
    public let state = ObservableValue(HistoryState())
    private let database: AppDatabase
    private let pageSize: Int
    private var isLoadingMore = false

    /// History is read a page at a time (a page query stays in the low milliseconds at 100 000
    /// scans); the list asks for the next page as its end scrolls into view.
    public init(database: AppDatabase, pageSize: Int = 200) {
        self.database = database
        self.pageSize = pageSize
    }

    /// Loads the history from the database (off the main thread).
    public func reload() async {
        let database = self.database
        let limit = pageSize
        do {
            let entries = try await Task.detached(priority: .userInitiated) {
                try database.history(limit: limit)
            }.value
            state.update {
                $0.entries = entries
                $0.phase = .loaded
                $0.hasMore = entries.count == limit
            }
        } catch {
            state.update { $0.phase = .failed(Self.describe(error)) }
        }
    }

    /// Appends the next page of older scans.
    public func loadMore() async {
        guard state.value.hasMore, !isLoadingMore else { return }
        isLoadingMore = true
        defer { isLoadingMore = false }
        let database = self.database
        let limit = pageSize
        let last = state.value.entries.last?.scan
        do {
            let page = try await Task.detached(priority: .userInitiated) {
                try database.history(limit: limit, after: last)
            }.value
            state.update {
                $0.entries.append(contentsOf: page)
                $0.hasMore = page.count == limit
            }
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Deletes a scan; it can be restored with `undoDelete()` until the next delete.
    public func delete(scanID: Int64) async {
        let database = self.database
        let removed = state.value.entries.first { $0.id == scanID }
        do {
            _ = try await Task.detached { try database.deleteScan(id: scanID) }.value
            state.update {
                $0.entries.removeAll { $0.id == scanID }
                $0.undoableDeletion = removed
                $0.errorMessage = nil
            }
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Restores the scan removed by the last `delete(scanID:)`.
    public func undoDelete() async {
        guard let entry = state.value.undoableDeletion else { return }
        let database = self.database
        do {
            try await Task.detached { try database.restoreScan(entry.scan) }.value
            state.update { $0.undoableDeletion = nil }
            await reload()
        } catch {
            state.update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Forgets the undoable deletion (the undo toast timed out).
    public func commitDeletion() {
        state.update { $0.undoableDeletion = nil }
    }

    private static func describe(_ error: Error) -> String {
        (error as? CrateError)?.message ?? "\(error)"
    }
}
