import Foundation

/// What the crate grid shows.
public struct LibraryState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case loading
        case loaded
        case failed(String)
    }

    /// The first page of the list (up to `LibraryStore.firstPageSize` albums). The grid reads the
    /// rest a page at a time through `listing`; a crate of 100 000 albums is never in memory.
    public var albums: [AlbumSummary] = []
    /// What the grid lists: the count and order of every album in the search (see `AlbumListing`).
    public var listing = AlbumListing()
    public var sort: AlbumSort = .recentlyScanned
    /// The sort's order turned around (Z to A, oldest scan first, …).
    public var reversed = false
    /// The search text (Ctrl+F); empty shows everything.
    public var query: String = ""
    /// Every album (all are seen), or the owned or wanted ones.
    public var collection: CollectionFilter = .seen
    /// How many albums each collection filter shows.
    public var collectionCounts = CollectionCounts()
    public var phase: Phase = .loading
    public var selectedAlbumID: Int64?
    /// Albums in the whole crate (the search shows `albums.count` of them).
    public var total = 0
    /// The last album removed ("Remove from Crate"), which Undo can put back.
    public var undoableRemoval: RemovedAlbum?
    /// Why the last removal or its undo failed, in plain words.
    public var errorMessage: String?

    /// "2,000 albums", or while searching "12 of 2,000"; nil before the first load.
    public var countText: String? {
        guard phase == .loaded else { return nil }
        if !query.isEmpty || collection != .seen { return L10n.tr("%@ of %@", Self.grouped(listing.count), Self.grouped(total)) }
        return L10n.plural("%@ album", "%@ albums", total, Self.grouped(total))
    }

    /// Thousands grouped with commas ("100,000"), the same in every locale for now.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// The selected album when it is on the first page (the window asks the detail store instead).
    public var selectedAlbum: AlbumSummary? {
        guard let selectedAlbumID else { return nil }
        return albums.first { $0.id == selectedAlbumID }
    }

    public init() {}
}

/// The crate: every album, sorted and searchable. Widgets read `state` and call intent methods.
///
/// After `start()` the store reloads itself whenever albums, scans or reviews change, whoever
/// wrote them (this process or the CLI), so writers never need to know about it.
@MainActor
public final class LibraryStore {
    /// The tables the grid query reads (albums, their scans, and reviews for the rating sort).
    public static let observedTables: Set<String> = [Album.databaseTableName, Scan.databaseTableName, Review.databaseTableName, "album_copy"]

    public let state = ObservableValue(LibraryState())
    private let database: AppDatabase
    /// The listing, its first page and the counts, read again after every change.
    private lazy var query = ObservedQuery<CrateGridRequest.Answer>(database: database, tables: Self.observedTables) { [weak self] in
        self?.makeRead()
    } deliver: { [weak self] in
        self?.apply($0)
    }
    /// Loads started so far (tests count them to check that bursts of changes are coalesced).
    var reloadCount: Int { query.readCount }
    /// Albums read with each listing (the grid asks for the rest as it scrolls).
    public nonisolated static let firstPageSize = 120

    /// Where the chosen sort order is kept across restarts (nil: not kept).
    private let sortFile: SortChoiceFile?

    public init(database: AppDatabase, sortFile: SortChoiceFile? = nil) {
        self.database = database
        self.sortFile = sortFile
        if let choice = sortFile?.read() {
            state.update {
                $0.sort = choice.sort
                $0.reversed = choice.reversed
            }
        }
    }

    /// Loads the crate and keeps it current until `stop()`. Calling it again does nothing.
    public func start() {
        query.start()
    }

    /// Stops following the database (the state keeps its last value).
    public func stop() {
        query.stop()
    }

    public func reload() async {
        await query.refresh()
    }

    /// The read for the current sort, search and filter. The revision (a new one per read) tells
    /// the grid that albums past the first page may have changed.
    private func makeRead() -> ObservedQuery<CrateGridRequest.Answer>.Read {
        let (database, value) = (self.database, state.value)
        let listing = AlbumListingRequest(sortedBy: value.sort, reversed: value.reversed, matching: value.query, collection: value.collection,
                                          revision: query.generation)
        let request = CrateGridRequest(listing: listing, pageSize: Self.firstPageSize)
        return { try database.read(request) }
    }

    private func apply(_ result: Result<CrateGridRequest.Answer, any Error>) {
        switch result {
        case .success(let answer):
            var next = state.value
            next.albums = answer.albums
            next.listing = answer.listing
            next.total = answer.counts.seen
            next.collectionCounts = answer.counts
            next.phase = .loaded
            // Every reload is told (the revision changes): albums past the first page may have
            // changed, and the grid re-reads the pages it holds and redraws only what differs.
            state.set(next)
        case .failure(let error):
            state.update { $0.phase = .failed(UserMessage.text(for: error)) }
        }
    }

    /// Albums `offset ..< offset + limit` of a listing, read now (the grid asks for the page it is
    /// about to show; a page is one indexed query). Empty when the database cannot be read.
    public func page(of listing: AlbumListing, offset: Int, limit: Int) -> [AlbumSummary] {
        (try? database.read(AlbumPageRequest(of: listing, offset: offset, limit: limit))) ?? []
    }

    public func setSort(_ sort: AlbumSort) async {
        guard sort != state.value.sort else { return }
        state.update { $0.sort = sort }
        keepSortChoice()
        await reload()
    }

    public func setReversed(_ reversed: Bool) async {
        guard reversed != state.value.reversed else { return }
        state.update { $0.reversed = reversed }
        keepSortChoice()
        await reload()
    }

    private func keepSortChoice() {
        sortFile?.write(.init(sort: state.value.sort, reversed: state.value.reversed))
    }

    /// Shows every album, or only the owned or the wanted ones.
    public func setCollection(_ filter: CollectionFilter) async {
        guard filter != state.value.collection else { return }
        state.update { $0.collection = filter }
        await reload()
    }

    public func search(_ query: String) async {
        state.update { $0.query = query }
        await reload()
    }

    /// "Remove from Crate": the album leaves the crate with its scans, tracks and the rest, kept
    /// in `undoableRemoval` for `undoRemoval`. Returns what was removed (nil when it was gone
    /// already, e.g. removed by another process, or when the write failed: see `errorMessage`).
    @discardableResult
    public func remove(albumID: Int64) async -> RemovedAlbum? {
        let database = self.database
        do {
            let removed = try await Task.detached { try database.removeAlbum(id: albumID) }.value
            state.update {
                if removed != nil { $0.undoableRemoval = removed }
                if $0.selectedAlbumID == albumID { $0.selectedAlbumID = nil }
                $0.errorMessage = nil
            }
            await reload()
            return removed
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return nil
        }
    }

    /// Undo of `remove(albumID:)`: `removed` (a toast's own), or the last removal. Doing it twice
    /// restores the album once. Returns whether the album is in the crate afterwards.
    @discardableResult
    public func undoRemoval(_ removed: RemovedAlbum? = nil) async -> Bool {
        guard let removed = removed ?? state.value.undoableRemoval else { return false }
        let database = self.database
        do {
            try await Task.detached { try database.restoreAlbum(removed) }.value
            state.update {
                if $0.undoableRemoval == removed { $0.undoableRemoval = nil }
                $0.errorMessage = nil
            }
            await reload()
            return true
        } catch {
            state.update { $0.errorMessage = UserMessage.text(for: error) }
            return false
        }
    }

    /// Forgets the undoable removal (its toast went away).
    public func commitRemoval(_ removed: RemovedAlbum) {
        if state.value.undoableRemoval == removed { state.update { $0.undoableRemoval = nil } }
    }

    public func select(albumID: Int64?) {
        state.update { $0.selectedAlbumID = albumID }
    }
}
