import Foundation

/// What the crate grid shows.
public struct LibraryState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    public var albums: [AlbumSummary] = []
    public var sort: AlbumSort = .recentlyScanned
    /// The search text (Ctrl+F); empty shows everything.
    public var query: String = ""
    public var phase: Phase = .loading
    public var selectedAlbumID: Int64?

    public var selectedAlbum: AlbumSummary? {
        guard let selectedAlbumID else { return nil }
        return albums.first { $0.id == selectedAlbumID }
    }

    public init() {}
}

/// The crate: every album, sorted and searchable. Widgets read `state` and call intent methods.
@MainActor
public final class LibraryStore {
    public let state = ObservableValue(LibraryState())
    private let database: AppDatabase
    /// Bumped by every load so a slow, stale search never overwrites a newer one.
    private var generation = 0

    public init(database: AppDatabase) {
        self.database = database
    }

    public func reload() async {
        generation += 1
        let current = generation
        let database = self.database
        let sort = state.value.sort
        let query = state.value.query
        do {
            let albums = try await Task.detached(priority: .userInitiated) {
                try database.albums(sortedBy: sort, matching: query.isEmpty ? nil : query)
            }.value
            guard current == generation else { return }
            state.update {
                $0.albums = albums
                $0.phase = .loaded
            }
        } catch {
            guard current == generation else { return }
            state.update { $0.phase = .failed((error as? CrateError)?.message ?? "\(error)") }
        }
    }

    public func setSort(_ sort: AlbumSort) async {
        guard sort != state.value.sort else { return }
        state.update { $0.sort = sort }
        await reload()
    }

    public func search(_ query: String) async {
        state.update { $0.query = query }
        await reload()
    }

    public func select(albumID: Int64?) {
        state.update { $0.selectedAlbumID = albumID }
    }
}
