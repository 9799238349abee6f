import CGtk
import CrateCore

// A little over 300 lines: the crate page's grid, pane, candidates, removal with Undo and its
// context menus are one page's wiring.
/// The Crate page: the album grid (or its empty, no-results and loading pages) beside the album
/// pane. Owns those widgets and the library and detail stores' subscriptions; what it needs of
/// the rest of the window (toasts, other pages, playback) goes through `host`.
@MainActor
final class CratePageController {
    let grid = AlbumGridView()
    /// Grid and album pane, side by side or folded into one column.
    let browser: CrateBrowser
    private(set) var pane: AlbumDetailPane?
    private(set) var library: LibraryStore?
    private(set) var detail: AlbumDetailStore?
    private(set) var record: RecordStore?
    /// Called when what the header shows for this page may have changed (count, back button).
    var onHeaderChange: (() -> Void)?
    /// Called with the album count text ("40 albums", "5 of 40") whenever the loaded crate shows.
    var onCount: ((String) -> Void)?
    /// Called when a loaded crate was put on screen.
    var onShown: ((LibraryState) -> Void)?
    /// Whether the window shows this page now.
    var isVisible: () -> Bool {
        get { live.isVisible }
        set { live.isVisible = newValue }
    }
    private weak var host: MainWindow?
    let stack: UnsafeMutablePointer<GtkWidget>
    private let emptyState = EmptyStateView(
        title: L10n.tr("Scan your first album to begin"),
        detail: L10n.tr("Drop a photo of a record cover anywhere on this window, or open one with Ctrl+O. Crate names the album and keeps every album you meet here, even offline."),
        button: (L10n.tr("_Open Photos…"), "win.scan")
    )
    /// The library could not be read: no Open Photos… (nothing could be saved), and the first-run
    /// page keeps its own words for when a library opens empty.
    private let libraryError = EmptyStateView(icon: "dialog-warning-symbolic", title: L10n.tr("Crate cannot open your library"), detail: "")
    private let noResults = EmptyStateView(icon: "edit-find-symbolic", title: L10n.tr("No albums found"), detail: L10n.tr("Try another artist, title, label or genre."))
    private let noneOwned = EmptyStateView(icon: "media-optical-symbolic", title: L10n.tr("Nothing here yet"),
                                           detail: L10n.tr("Press “I Own This” or “Want” in an album’s pane (Ctrl+Shift+O, Ctrl+Shift+W)."))
    /// All · Owned · Wanted, above the grid.
    let filterBar = CollectionFilterBar()
    /// Filled once the page is shown or the start-up has settled (see `MainWindow.makeLive`).
    private let live = HeldUntilLive<LibraryState>()
    var isLive: Bool { live.isLive }
    /// The query and sort the grid last showed: a new one starts at the top.
    private var shownQuery: (query: String, sort: AlbumSort, reversed: Bool, collection: CollectionFilter)?
    private var tokens: [ObservationToken] = []

    init(host: MainWindow) {
        self.host = host
        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), grid.widget, "grid")
        gtk_stack_add_named(crate_stack(stack), emptyState.widget, "empty")
        gtk_stack_add_named(crate_stack(stack), libraryError.widget, "error")
        gtk_stack_add_named(crate_stack(stack), noResults.widget, "no-results")
        gtk_stack_add_named(crate_stack(stack), noneOwned.widget, "none-in-filter")
        gtk_stack_add_named(crate_stack(stack), Gtk.spinnerPage(), "loading")
        gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        let column = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_vexpand(stack, 1)
        Gtk.append(column, filterBar.widget)
        Gtk.append(column, stack)
        gtk_widget_set_visible(filterBar.widget, 0)
        browser = CrateBrowser(grid: column)
    }

    /// Binds the page to the library's stores.
    func attach(library: LibraryStore, detail: AlbumDetailStore, record: RecordStore, pressings: PressingsStore, discogsAccount: DiscogsAccountStore? = nil) {
        self.library = library
        self.detail = detail
        self.record = record
        let pane = AlbumDetailPane(store: detail, record: record, pressings: pressings, discogsAccount: discogsAccount)
        pane.onPressingSwitched = { [weak self] album, pressing in
            guard let id = album.id else { return }
            // Merged into the album the crate already had for that release: show that one.
            if id != self?.detail?.state.value.album?.id { self?.open(albumID: id) }
            self?.host?.toasts.show(L10n.tr("Now the pressing %@", pressing.distinguishing ?? pressing.title))
        }
        pane.onCollectionChange = { [weak self, weak record] message, change in
            self?.host?.undo.offer(message) { Task { await record?.undo(change) } }
        }
        self.pane = pane
        browser.setDetail(pane.widget)
        browser.onClose = { [weak self] in self?.closeDetail() }
        browser.onLayoutChange = { [weak self] in self?.onHeaderChange?() }
        library.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
        filterBar.onFilter = { [weak library] filter in Task { await library?.setCollection(filter) } }
        // An album to show (picked in the grid, or just scanned) opens the pane; none closes it.
        browser.follow(detail).store(in: &tokens)
        grid.fetchPage = { [weak library] listing, offset, limit in
            library?.page(of: listing, offset: offset, limit: limit) ?? []
        }
        grid.onSelect = { [weak library, weak detail] id in
            library?.select(albumID: id)
            Task { await detail?.show(albumID: id) }
        }
        grid.onPlay = { [weak self] id in self?.host?.play(albumID: id, track: nil) }
        pane.onPlay = { [weak self] id, track in self?.host?.play(albumID: id, track: track) }
        pane.onArtist = { [weak self] name, group in self?.host?.openArtist(name: name, releaseGroup: group) }
        installContextMenus(pane: pane)
    }

    /// Marks what plays now in the grid, the pane and its track list.
    func attachPlayback(_ store: PlaybackStore, simulated: Bool) {
        pane?.onToggle = { [weak store] in Task { await store?.togglePlay() } }
        store.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.pane?.setPlayback(state, simulated: simulated)
            let id = state.status == .stopped ? nil : state.nowPlayingAlbum?.id
            self.grid.setNowPlaying(albumID: id, playing: state.status == .playing)
        }.store(in: &tokens)
    }

    /// "Not this album?" under every scanned album: open under the album a scan just found
    /// (the scan store's list), closed under any other (its newest scan's runners-up, read from
    /// the library), so the choice stays after the next scan and after a restart.
    func attachCandidates(to scans: ScanStore, model: AppModel) {
        guard let pane, let detail else { return }
        pane.candidates.loadCover = { [weak model] album in await model?.candidateCover(for: album) }
        pane.candidates.bind(to: scans).store(in: &tokens)
        var shownAlbumID: Int64?
        detail.state.subscribe(initial: false) { [weak self, weak pane, weak model, weak scans] state in
            guard state.album?.id != shownAlbumID else { return }
            shownAlbumID = state.album?.id
            guard let id = shownAlbumID, let model else { return pane?.candidates.show([]) ?? () }
            // The album the scan just found: its list is already open; an album's "Not This
            // Album?" menu item opens its own.
            if case .complete(let result) = scans?.state.value.phase, result.entry.album.id == id { return }
            if self?.reconsidering == id { return }
            Task {
                let found = await model.reconsideration(albumID: id)
                guard shownAlbumID == id, let pane else { return }
                guard let (entry, candidates) = found else { return pane.candidates.show([]) }
                pane.candidates.reconsider(candidates, expanded: false) { [weak scans] album in scans?.choose(album, replacing: entry) }
            }
        }.store(in: &tokens)
    }

    /// Hearts and ✕ in the grid and the pane rate through the wall's store, like its tiles.
    func attachRatings(_ wall: WallStore, rate: @escaping @MainActor (RatedAlbum, AlbumRating?) async -> Void) {
        grid.onRate = { album, rating in Task { await rate(album, rating) } }
        pane?.actions.onRate = { [weak self] rating in
            guard let detail = self?.detail else { return }
            Task { await detail.rateShown(rating, using: rate) }
        }
        wall.state.subscribe(initial: true) { [weak self] state in
            self?.grid.show(ratings: state.ratings)
        }.store(in: &tokens)
    }

    /// Why a request for an album could not play, under that album's title (nil clears it).
    func showPlaybackProblem(_ message: String?, albumID: Int64?) {
        guard let message, let albumID else {
            pane?.showPlaybackNote(nil, albumID: nil)
            return
        }
        pane?.showPlaybackNote(message, albumID: albumID)
    }

    /// The albums from `id` on in the grid's order (a page's worth: the queue grows from there
    /// as it plays); empty when the album is not in the grid.
    func albumIDs(from id: Int64) -> [Int64] {
        grid.cachedPosition(of: id).map { grid.albumIDs(from: $0, limit: 500) } ?? []
    }

    /// The empty crate's "Open Photos…" button.
    var emptyActionButton: UnsafeMutablePointer<GtkWidget>? { emptyState.actionButton }

    /// Searches the crate (the window's search entry).
    func search(_ query: String) {
        guard let library else { return }
        Task { await library.search(query) }
    }

    func focus() { grid.focus() }

    var isShowingDetail: Bool { browser.isShowingDetail }
    /// A folded window shows only the album (the header shows back instead of grid actions).
    var showsAlbumOnly: Bool { browser.isFolded && browser.isShowingDetail }
    /// Search and sort have something to act on.
    var hasAlbums: Bool { library.map { $0.state.value.total > 0 || !$0.state.value.query.isEmpty } ?? false }
    var countText: String? { library?.state.value.countText }

    /// Fills the page with what waited for it to be shown.
    func makeLive() {
        if let held = live.makeLive() { render(held) }
    }

    /// Closes the album pane (Esc, its close button, the back button): nothing is selected, and a
    /// folded window shows the grid again. Focus goes back to the grid.
    func closeDetail() {
        library?.select(albumID: nil)
        if let detail { Task { await detail.show(albumID: nil) } }
        browser.showGrid()
        grid.focus()
    }

    /// Shows an album: selected in the grid when it is there, its pane open.
    func open(albumID id: Int64) {
        library?.select(albumID: id)
        grid.select(albumID: id)
        guard let detail else { return }
        Task { await detail.show(albumID: id) }
    }

    /// A scan just saved: its album selected and shown with its review.
    func show(scanResult result: ScanResult) async {
        guard let id = result.entry.album.id else { return }
        library?.select(albumID: id)
        await record?.show(albumID: id, verdict: result.verdict)
        await detail?.show(scanResult: result)
        pane?.showTab("review")
    }

    /// "Not this album?" from an album's menu: the album opens with the runners-up of its newest
    /// scan; a pick switches that scan to it (the wrong album leaves the crate when nothing else
    /// holds it), as the list under a scan just made does.
    func reconsider(albumID id: Int64, model: AppModel, scans: ScanStore?) {
        reconsidering = id
        open(albumID: id)
        Task { [weak self] in
            let found = await model.reconsideration(albumID: id)
            guard let self else { return }
            self.reconsidering = nil
            guard let (entry, candidates) = found else {
                self.host?.toasts.show(L10n.tr("This album was not scanned: there is nothing else to choose"), seconds: 4)
                return
            }
            guard !candidates.isEmpty else {
                self.host?.toasts.show(L10n.tr("No other albums were found for its scan"), seconds: 4)
                return
            }
            self.onReconsider?(id, entry.id, candidates.count)
            self.pane?.candidates.reconsider(candidates) { album in scans?.choose(album, replacing: entry) }
        }
    }
    /// The album whose "Not This Album?" menu item is reading its runners-up (they open).
    private var reconsidering: Int64?
    /// Called when "Not this album?" offers the runners-up: album, scan, how many.
    var onReconsider: ((Int64, Int64, Int) -> Void)?

    /// "Remove from Crate": the album leaves the crate (with its scans, tracks, …) and a toast
    /// offers Undo, which puts it all back.
    func remove(albumID id: Int64) async -> RemovedAlbum? {
        guard let library else { return nil }
        guard let removed = await library.remove(albumID: id) else {
            if let message = library.state.value.errorMessage { host?.toasts.show(message, seconds: 5) }
            return nil
        }
        if detail?.state.value.album?.id == id { await detail?.show(albumID: nil) }
        onRemoved?(id)
        return removed
    }
    var onRemoved: ((Int64) -> Void)?
    var onRestored: ((Int64) -> Void)?

    func commitRemoval(_ removed: RemovedAlbum) { library?.commitRemoval(removed) }
    var undoableRemoval: RemovedAlbum? { library?.state.value.undoableRemoval }

    /// Undo of "Remove from Crate": the album is back, selected in the grid.
    func undoRemoval(of removed: RemovedAlbum) {
        guard let library else { return }
        Task { [weak self] in
            let back = await library.undoRemoval(removed)
            guard let self else { return }
            if back {
                self.grid.select(albumID: removed.albumID)
                self.onRestored?(removed.albumID)
            } else if let message = library.state.value.errorMessage {
                self.host?.toasts.show(message, seconds: 6)
            }
        }
    }

    /// Shows why the library could not be opened (e.g. an unwritable data directory).
    func showLibraryError(_ message: String) {
        libraryError.update(title: L10n.tr("Crate cannot open your library"), detail: message)
        gtk_stack_set_visible_child_name(crate_stack(stack), "error")
    }

    // MARK: - Private

    private func render(_ state: LibraryState) {
        // (Only a loaded crate decides: the first state, "loading", comes while the window is
        // still being built, before a launch option picks the page.)
        switch state.phase {
        case .failed:
            // Shown at once, live or not; the "loading" held before it must not cover it later.
            live.drop()
        case .loading where !live.isLive:
            live.hold(state)
            return
        case .loaded where !live.admit(state):
            return
        default: break
        }
        switch state.phase {
        case .loading:
            gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        case .failed(let message):
            showLibraryError(message)
            host?.banner.show(message, isError: true)
        case .loaded:
            StartupTiming.mark("library shown (\(state.listing.count) albums)")
            grid.show(state.listing, firstPage: state.albums, selected: state.selectedAlbumID)
            // A new search or sort is a new list: show it from its first album, not from where
            // the old list was scrolled to.
            if let shown = shownQuery, shown.query != state.query || shown.sort != state.sort || shown.reversed != state.reversed
                || shown.collection != state.collection { grid.scrollToTop() }
            shownQuery = (state.query, state.sort, state.reversed, state.collection)
            if let count = state.countText { onCount?(count) }
            onHeaderChange?()
            filterBar.show(filter: state.collection, counts: state.collectionCounts)
            // Only once there is something to tell apart (an empty crate shows its welcome).
            gtk_widget_set_visible(filterBar.widget, state.total > 0 ? 1 : 0)
            let page = state.listing.count > 0 ? "grid" : !state.query.isEmpty ? "no-results" : state.collection != .seen ? "none-in-filter" : "empty"
            gtk_stack_set_visible_child_name(crate_stack(stack), page)
            onShown?(state)
        }
    }

    /// Context menus on grid cells and tracks, built from the window's actions.
    private func installContextMenus(pane: AlbumDetailPane) {
        grid.onContextMenu = { summary, widget, point in
            let album = summary.album
            var links: [ContextMenu.Item] = [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(album.artist) – \(album.title)"))]
            if let page = album.musicBrainzPage {
                links.append(.init(label: L10n.tr("Open in _MusicBrainz"), action: "win.open-uri", target: .text(page.absoluteString)))
            }
            ContextMenu.present([
                [.init(label: L10n.tr("_Play"), action: "win.album-play", target: .id(summary.id)),
                 .init(label: L10n.tr("_Spin This Record"), action: "win.album-spin", target: .id(summary.id)),
                 .init(label: L10n.tr("_Open Album"), action: "win.album-open", target: .id(summary.id)),
                 .init(label: L10n.tr("Show in _History"), action: "win.album-history", target: .id(summary.id)),
                 .init(label: L10n.tr("Show _Artist"), action: "win.album-artist", target: .id(summary.id))],
                [.init(label: L10n.tr("_Not This Album?"), action: "win.album-not-this", target: .id(summary.id)),
                 .init(label: L10n.tr("_Tell Crate What It Is…"), action: "win.album-identify", target: .id(summary.id))],
                links,
                [.init(label: L10n.tr("_Remove from Crate"), action: "win.album-remove", target: .id(summary.id))],
            ], on: widget, at: point, name: "album \(summary.id)")
        }
        pane.onTrackMenu = { album, index, track, widget, point in
            ContextMenu.present([
                [.init(label: L10n.tr("_Play from Here"), action: "win.track-play", target: .id(Int64(index)))],
                [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(album.artist) – \(track.title)"))],
            ], on: widget, at: point, name: "track \(index)")
        }
    }
}
