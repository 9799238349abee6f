import CGtk
import Foundation
import CrateCore

/// The main window: header bar, notices, the crate (grid + detail pane) and the history.
@MainActor
final class MainWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let mainStack: UnsafeMutablePointer<GtkWidget>
    let banner = NoticeBanner()
    /// Non-blocking messages (AdwToastOverlay around the content).
    private(set) var toasts: Toasts!
    let grid = AlbumGridView()
    let historyList = HistoryListView()
    /// The Crate Wall, the first page.
    let wallPage = WallPage()
    /// The genre bar above the wall, and a genre's feed in the wall's place.
    let genreArea = GenreWallArea()
    /// The wall beside its album pane (a tile opens it), folding like the crate page.
    let wallBrowser: CrateBrowser
    var wallDetail: AlbumDetailStore?
    var wallDetailPane: AlbumDetailPane?
    /// The genre bar's store (see MainWindow+Genres).
    var genreStore: GenreFeedStore?
    /// The artist page over the pages (see MainWindow+Artist); nil until the library opens.
    var artistArea: ArtistArea?
    let overlay: UnsafeMutablePointer<GtkWidget>
    let dropOverlay = DropOverlay()
    let progressView = ScanProgressView()
    let errorBanner = ErrorBanner()
    var scanStore: ScanStore?
    /// The stores and services (the composition root); nil until the library opens.
    var model: AppModel?
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    private let crateStack: UnsafeMutablePointer<GtkWidget>
    private let historyStack: UnsafeMutablePointer<GtkWidget>
    /// Grid and detail pane, side by side or folded into one column.
    let browser: CrateBrowser
    /// Space, the other player keys and Escape, before the focused widget sees them.
    private(set) var keys: WindowKeys!
    /// The header bar's back button: shown while a folded window shows an album.
    var backButton: UnsafeMutablePointer<GtkWidget>!
    /// The header's title (its subtitle counts the albums: "2,000 albums", "12 of 2,000").
    var switcherTitle: UnsafeMutablePointer<GtkWidget>?
    /// The same count beside the Scan button while the switcher hides the subtitle.
    var countLabel: UnsafeMutablePointer<GtkWidget>?
    /// Whether search and sort were last made sensitive (nil before the first header update).
    var gridButtonsSensitive: Bool?
    /// Header buttons that act on the grid: hidden while a folded window shows an album, which
    /// leaves the narrow header room for the back button.
    var gridButtons: [UnsafeMutablePointer<GtkWidget>] = []
    /// The first-run welcome, while it shows.
    var welcome: WelcomeView?
    /// The toast offering to undo the last history delete.
    var undoToast: ToastHandle?
    /// The toast offering to undo the last "Remove from Crate".
    var removalToast: ToastHandle?
    /// What Ctrl+Z undoes: the newer of a history delete and an album removal.
    var lastUndoable: Undoable?
    enum Undoable { case scanDeletion, albumRemoval }
    /// The scan failure and run summary already shown as toasts (each is shown once).
    var shownScanFailure: ScanState.Phase?
    var shownSummaryRun = 0
    /// The query and sort the grid last showed: a new one starts at the top.
    var shownQuery: (query: String, sort: AlbumSort, reversed: Bool)?
    private let emptyState = EmptyStateView(
        title: L10n.tr("Scan your first album to begin"),
        detail: L10n.tr("Crate identifies an album from a photo of its cover and keeps every album you meet here, even offline.")
    )
    private let noResults = EmptyStateView(icon: "edit-find-symbolic", title: L10n.tr("No albums found"), detail: L10n.tr("Try another artist, title, label or genre."))
    private let historyEmpty = EmptyStateView(icon: "document-open-recent-symbolic", title: L10n.tr("Scan your first album to begin"), detail: L10n.tr("Every scan you make is listed here, newest first."))
    var library: LibraryStore?
    var history: HistoryStore?
    var detail: AlbumDetailStore?
    var playback: PlaybackStore?
    /// The album the user last asked to play (for "Not in your music folder" in the detail pane).
    var lastPlayedAlbumID: Int64?
    var playbackBar: PlaybackBar?
    let contentBox: UnsafeMutablePointer<GtkWidget>
    var detailPane: AlbumDetailPane?
    var tokens: [ObservationToken] = []
    /// Work left until the first page is on screen (see StartupQueue).
    let startup = StartupQueue()
    /// Pages filled so far, and what waits for the others (see `isLive`).
    private var livePages: Set<String> = []
    private var heldLibrary: LibraryState?
    private var heldHistory: HistoryState?
    /// The wall has shown its tiles (start-up settles on its page once they are drawn).
    private var wallTilesShown = false
    /// Watches and re-indexes the music folders (see MainWindow+CDs).
    var musicFolders: MusicFolderMonitor?

    init(application: UnsafeMutablePointer<GtkApplication>) {
        widget = adw_application_window_new(application)!
        gtk_window_set_title(crate_window(widget), L10n.tr("Crate"))
        gtk_window_set_default_size(crate_window(widget), 1180, 760)
        gtk_window_set_icon_name(crate_window(widget), CrateVersion.applicationID)

        crateStack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(crateStack), grid.widget, "grid")
        gtk_stack_add_named(crate_stack(crateStack), emptyState.widget, "empty")
        gtk_stack_add_named(crate_stack(crateStack), noResults.widget, "no-results")
        gtk_stack_add_named(crate_stack(crateStack), Self.spinnerPage(), "loading")
        gtk_stack_set_visible_child_name(crate_stack(crateStack), "loading")

        historyStack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(historyStack), historyList.widget, "list")
        gtk_stack_add_named(crate_stack(historyStack), historyEmpty.widget, "empty")
        historyList.enableDeleteShortcut()

        browser = CrateBrowser(grid: crateStack)
        wallBrowser = CrateBrowser(grid: genreArea.wrap(wallPage.widget))
        mainStack = adw_view_stack_new()!
        let wall = adw_view_stack_add_titled(crate_view_stack(mainStack), wallBrowser.widget, "wall", L10n.tr("Wall"))
        adw_view_stack_page_set_icon_name(wall, "view-grid-symbolic")
        let cratePage = adw_view_stack_add_titled(crate_view_stack(mainStack), browser.widget, "crate", L10n.tr("Crate"))
        adw_view_stack_page_set_icon_name(cratePage, "media-optical-symbolic")
        let historyPage = adw_view_stack_add_titled(crate_view_stack(mainStack), historyStack, "history", L10n.tr("History"))
        adw_view_stack_page_set_icon_name(historyPage, "document-open-recent-symbolic")
        // The window still opens on the crate (the UI tests start there); the wall is one click away.
        adw_view_stack_set_visible_child_name(crate_view_stack(mainStack), "crate")

        searchEntry = gtk_search_entry_new()!
        Gtk.setAccessibleLabel(searchEntry, L10n.tr("Search the crate"))
        gtk_widget_set_hexpand(searchEntry, 1)
        // Up to 400 px wide, and narrower with the window (it fits at 360 px).
        let searchClamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(searchClamp), 400)
        adw_clamp_set_child(crate_clamp(searchClamp), searchEntry)
        searchBar = gtk_search_bar_new()!
        gtk_search_bar_set_child(crate_search_bar(searchBar), searchClamp)
        gtk_search_bar_connect_entry(crate_search_bar(searchBar), crate_editable(searchEntry))
        gtk_search_bar_set_show_close_button(crate_search_bar(searchBar), 1)
        crate_search_bar_label_close_button(searchBar, L10n.tr("Close the search"))

        contentBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let content = contentBox
        Gtk.append(content, banner.widget)
        Gtk.append(content, searchBar)
        gtk_widget_set_vexpand(mainStack, 1)
        Gtk.append(content, mainStack)
        overlay = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(overlay), content)
        gtk_widget_set_vexpand(overlay, 1)
        for layer in [progressView.widget, errorBanner.widget, dropOverlay.widget] {
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
        }
        let toastOverlay = Toasts(content: overlay)
        gtk_widget_set_vexpand(toastOverlay.widget, 1)
        // AdwApplicationWindow has no title bar slot: the header bar is the first row of the
        // content, and the page switcher moves to a bottom bar when the header is too narrow.
        let (header, switcherBar) = makeHeaderBar()
        let window = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(window, header)
        Gtk.append(window, toastOverlay.widget)
        Gtk.append(window, switcherBar)
        adw_application_window_set_content(crate_adw_application_window(widget), window)
        toasts = toastOverlay
        installActions()
        keys = WindowKeys.install(on: widget)
        keys.onEscape = { [weak self] in self?.escape() ?? false }
        GObjectScope.of(widget).connect(searchBar, "notify::search-mode-enabled") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            TestEvents.note("search \(gtk_search_bar_get_search_mode(crate_search_bar(self.searchBar)) != 0 ? "open" : "closed")")
        }
        GObjectScope.of(widget).connect(widget, "map") { [weak self] in
            StartupTiming.mark("window mapped")
            guard let self else { return }
            self.wallPage.stopHoldingBack()
            self.startup.windowMapped(self.widget)
        }
        // The first show gives the grid only the albums that fit; the rest once the first
        // covers are on screen.
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(crate_window(widget), &width, &height)
        grid.holdBack(forWindowWidth: width, height: height)
        wallPage.holdBack(forWindowWidth: width, height: height)
        wallPage.onHeld = { [weak self] in
            self?.startup.later("wall filled") { [weak self] in self?.wallPage.revealHeld() }
        }
        // Only the start-up holds anything back: a crate first shown later is whole, and so is
        // a wall that was not stored (it comes from the network once the window is up).
        startup.later("first shows whole") { [weak self] in self?.grid.stopHoldingBack() }
        startup.later("crate grid") { [weak self] in self?.makeLive("crate") }
        startup.later("history list") { [weak self] in self?.makeLive("history") }
        GObjectScope.of(widget).connect(mainStack, "notify::visible-child-name") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, let page = self.visiblePage else { return }
            self.makeLive(page)
            // The stored wall is usually in place before a launch option turns to its page.
            if page == "wall", self.wallTilesShown { self.startup.settleAfterNextFrame("wall") }
        }
        grid.onHeld = { [weak self] in
            self?.startup.later("grid filled") { [weak self] in self?.grid.revealHeld() }
        }
        grid.onFirstCover = { [weak self] in
            StartupTiming.mark("first covers visible")
            StartupTiming.markAtNextFrame("first covers drawn")
            if self?.visiblePage == "crate" { self?.startup.settleAfterNextFrame("first covers") }
        }
        wallPage.onTilesShown = { [weak self] count in
            StartupTiming.markAtNextFrame("wall drawn (\(count) tiles)")
            self?.wallTilesShown = true
            if self?.visiblePage == "wall" { self?.startup.settleAfterNextFrame("wall") }
        }
        if TestEvents.isEnabled {
            // The laid-out cells, whenever they change (checked a few times a second: covers
            // arrive and cells are laid out frames after they are bound).
            var reported = ""
            GObjectScope.of(widget).every(milliseconds: 250) { [weak self] in
                guard let self else { return false }
                let sizes = self.grid.boundCellSizes().filter { $0.width > 0 && $0.height > 0 }
                let line = sizes.map { "\($0.width)x\($0.height)" }.joined(separator: " ")
                guard !sizes.isEmpty, line != reported else { return true }
                reported = line
                TestEvents.note("grid-cell-sizes " + line)
                if let first = self.grid.firstCellWidget() { TestEvents.reportPoint("grid-first-cell", of: first, in: self.widget) }
                return true
            }
        }
    }

    func present() {
        gtk_window_present(crate_window(widget))
    }

    /// Binds the window to the library's stores.
    func attach(library: LibraryStore, history: HistoryStore, detail: AlbumDetailStore, database: AppDatabase) {
        self.library = library
        self.history = history
        self.detail = detail
        let pane = AlbumDetailPane(store: detail)
        detailPane = pane
        browser.setDetail(pane.widget)
        browser.onClose = { [weak self] in self?.closeDetail() }
        browser.onLayoutChange = { [weak self] in self?.updateHeader() }
        tokens.append(contentsOf: bindStores(pane: pane))
        installContextMenus()
        if TestEvents.isEnabled {
            toasts.onShow = { TestEvents.toast($0) }
            historyList.onSelectionChanged = { TestEvents.historySelection($0) }
            grid.onNowPlaying = { TestEvents.note("grid-now-playing \($0.map(String.init) ?? "none")") }
            pane.onPlayIcon = { [weak self] icon in
                TestEvents.note("pane-play-icon \(icon)")
                if let self { TestEvents.reportPoint("play-button", of: pane.playAlbumButton, in: self.widget) }
            }
            pane.onTracksMarked = { playing, keys in TestEvents.note("tracks-marked playing=\(playing.map(String.init) ?? "none") key=\(keys)") }
            pane.candidates.onShown = { [weak self] row in
                guard let self else { return }
                TestEvents.reportPoint("candidate-row", of: row, in: self.widget)
            }
            // Banners measured with long messages (a recovery notice, a playback error).
            let notice = NoticeBanner(), error = ErrorBanner()
            let root = adw_application_window_get_content(crate_adw_application_window(widget))!
            // The header as it is below the switcher's width: the count label hides there.
            if let countLabel { gtk_widget_set_visible(countLabel, 0) }
            notice.show(L10n.tr("Crate found your library damaged and moved it aside to %@; a new, empty library was created.", "crate.sqlite.damaged-2026-11-23T09:00:00"))
            error.show(L10n.tr("The playback service could not start the album because the track list of this album has not arrived yet."))
            TestEvents.reportMinimumWidths([("progress-card", progressView.card), ("notice-banner", notice.widget),
                                            ("error-banner", error.widget), ("window-content", overlay),
                                            ("header-bar", gtk_widget_get_first_child(root)!), ("switcher-bar", gtk_widget_get_last_child(root)!), ("switcher-title", switcherTitle!)])
            updateHeader()
            TestEvents.reportCardHeights(ScanProgressView())
            g_object_ref_sink(notice.widget); g_object_unref(notice.widget)
            g_object_ref_sink(error.widget); g_object_unref(error.widget)
            tokens.append(contentsOf: TestEvents.report(library: library, history: history))
            tokens.append(contentsOf: TestEvents.reportSelection(library: library, detail: detail, window: widget,
                                                                 grid: grid.widget, playButton: pane.playAlbumButton))
        }
        if let notice = database.recoveryNotice {
            banner.show(notice)
        } else if let notice = database.readOnlyNotice {
            banner.show(notice)
        }
    }

    /// The first-run welcome over the window's content, until a provider is saved or skipped.
    func showWelcome(store: PreferencesStore) {
        let view = WelcomeView(store: store)
        welcome = view
        gtk_overlay_add_overlay(crate_overlay(overlay), view.widget)
        // Under the progress card and the drop overlay: a photo dropped now is still scanned.
        for layer in [progressView.widget, dropOverlay.widget] {
            g_object_ref(UnsafeMutableRawPointer(layer))
            gtk_overlay_remove_overlay(crate_overlay(overlay), layer)
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
            g_object_unref(UnsafeMutableRawPointer(layer))
        }
        view.onDone = { [weak self] in self?.closeWelcome() }
        if TestEvents.isEnabled {
            TestEvents.note("welcome shown")
            TestEvents.reportMinimumWidths([("welcome", view.widget)])
            TestEvents.reportPoint("welcome-key", of: view.keyField, in: widget)
            TestEvents.reportPoint("welcome-test", of: view.testConnectionButton, in: widget)
            TestEvents.reportPoint("welcome-save", of: view.saveButton, in: widget)
            var last: ConnectionTest?
            view.onConnection = { state in
                guard state != last else { return }
                last = state
                switch state {
                case .untested: break
                case .testing: TestEvents.note("connection testing")
                case .succeeded: TestEvents.note("connection succeeded")
                case .failed(let text): TestEvents.note("connection failed \(text)")
                }
            }
        }
    }

    func closeWelcome() {
        guard let welcome else { return }
        gtk_overlay_remove_overlay(crate_overlay(overlay), welcome.widget)
        self.welcome = nil
        grid.focus()
        if TestEvents.isEnabled { TestEvents.note("welcome closed") }
    }

    /// Shows why the library could not be opened (e.g. an unwritable data directory).
    func showLibraryError(_ message: String) {
        emptyState.update(title: L10n.tr("Crate cannot open your library"), detail: message)
        gtk_stack_set_visible_child_name(crate_stack(crateStack), "empty")
        banner.show(message, isError: true)
    }


    /// Shows "crate" or "history" and moves keyboard focus into it (arrows, Delete, Space work at once).
    func showPage(_ name: String) {
        makeLive(name)
        adw_view_stack_set_visible_child_name(crate_view_stack(mainStack), name)
        if name == "history" { historyList.focus() } else { grid.focus() }
        if name == "history", TestEvents.isEnabled { TestEvents.reportPoint("history-origin", of: historyList.widget, x: 0, y: 0, in: widget) }
    }

    /// The crate's grid and History's list are filled only once their page is shown or the
    /// start-up has settled: a grid view builds and binds `max-columns` × 30 cells and a list
    /// view 200 rows whatever their height, which cost the first page ~100 ms each on pages
    /// nobody was looking at.
    private func isLive(_ page: String) -> Bool {
        if livePages.contains(page) { return true }
        guard visiblePage == page else { return false }
        livePages.insert(page)
        return true
    }

    /// Fills a page with what waited for it (see `isLive`).
    func makeLive(_ page: String) {
        guard !livePages.contains(page) else { return }
        livePages.insert(page)
        if page == "crate", let held = heldLibrary {
            heldLibrary = nil
            renderLibrary(held)
        }
        if page == "history", let held = heldHistory {
            heldHistory = nil
            renderHistory(held)
        }
    }

    /// "crate" or "history".
    var visiblePage: String? {
        adw_view_stack_get_visible_child_name(crate_view_stack(mainStack)).map { String(cString: $0) }
    }

    /// Closes the album pane (Esc, its close button, the back button): nothing is selected, and a
    /// folded window shows the grid again. Focus goes back to the grid.
    func closeDetail() {
        library?.select(albumID: nil)
        if let detail { Task { await detail.show(albumID: nil) } }
        browser.showGrid()
        grid.focus()
    }

    /// Escape, in order: cancel a running scan; close the search; close the album pane.
    /// Returns false when there was nothing to close, so the key goes on to the focused widget.
    func escape() -> Bool {
        if scanStore?.state.value.isBusy == true {
            scanStore?.cancel()
            return true
        }
        if artistBack() { return true }
        if gtk_search_bar_get_search_mode(crate_search_bar(searchBar)) != 0 {
            gtk_search_bar_set_search_mode(crate_search_bar(searchBar), 0)
            gtk_editable_set_text(crate_editable(searchEntry), "")
            grid.focus()
            return true
        }
        if visiblePage == "crate", browser.isShowingDetail {
            closeDetail()
            return true
        }
        if visiblePage == "wall", wallBrowser.isShowingDetail {
            closeWallDetail()
            return true
        }
        if visiblePage == "wall", genreArea.isShowingGenre {
            dismissGenre()
            return true
        }
        return false
    }

    /// Where the pane has taken the grid's place, the header shows back instead of grid actions.
    func updateHeader() {
        // The artist page lies over the pages: while it is open only its own album counts.
        let albumOnly = artistArea?.isOpen == true ? artistAlbumOnly
            : (browser.isFolded && browser.isShowingDetail && visiblePage == "crate")
            || (wallBrowser.isFolded && wallBrowser.isShowingDetail && visiblePage == "wall")
        gtk_widget_set_visible(backButton, albumOnly ? 1 : 0)
        for button in gridButtons { gtk_widget_set_visible(button, albumOnly ? 0 : 1) }
        // Search and sort act on the crate: off on History and the Wall, and on an empty crate
        // (nothing to search or sort) unless a search is already under way.
        let crate = library?.state.value
        let hasAlbums = crate.map { $0.total > 0 || !$0.query.isEmpty } ?? false
        let sensitive = visiblePage == "crate" && hasAlbums
        if gridButtonsSensitive != sensitive {
            gridButtonsSensitive = sensitive
            for button in gridButtons { gtk_widget_set_sensitive(button, sensitive ? 1 : 0) }
            TestEvents.note("grid-buttons \(sensitive ? "sensitive" : "insensitive")")
        }
        if let switcherTitle {
            // The count belongs to the crate: no subtitle on History or the Wall.
            let count = visiblePage == "crate" ? library?.state.value.countText ?? "" : ""
            adw_view_switcher_title_set_subtitle(crate_view_switcher_title(switcherTitle), count)
        }
        if let countLabel, let switcherTitle {
            let wide = adw_view_switcher_title_get_title_visible(crate_view_switcher_title(switcherTitle)) == 0
            gtk_widget_set_visible(countLabel, wide && visiblePage == "crate" ? 1 : 0)
        }
    }

    // MARK: - Rendering

    func renderLibrary(_ state: LibraryState) {
        // (Only a loaded crate decides: the first state, "loading", comes while the window is
        // still being built, before a launch option picks the page.)
        switch state.phase {
        case .failed: break
        case .loading where !livePages.contains("crate"), .loaded where !isLive("crate"):
            heldLibrary = state
            return
        default: break
        }
        if case .loaded = state.phase { StartupTiming.mark("library shown (\(state.listing.count) albums)") }
        switch state.phase {
        case .loading:
            gtk_stack_set_visible_child_name(crate_stack(crateStack), "loading")
        case .failed(let message):
            showLibraryError(message)
        case .loaded:
            StartupTiming.mark("library loaded, filling grid")
            grid.show(state.listing, firstPage: state.albums, selected: state.selectedAlbumID)
            // A new search or sort is a new list: show it from its first album, not from where
            // the old list was scrolled to.
            if let shown = shownQuery, shown.query != state.query || shown.sort != state.sort || shown.reversed != state.reversed { grid.scrollToTop() }
            shownQuery = (state.query, state.sort, state.reversed)
            if let count = state.countText {
                if let countLabel { gtk_label_set_text(crate_label(countLabel), count) }
                TestEvents.note("album-count \(count)")
            }
            updateHeader()
            let page = state.listing.count > 0 ? "grid" : (state.query.isEmpty ? "empty" : "no-results")
            gtk_stack_set_visible_child_name(crate_stack(crateStack), page)
        }
    }

    func renderHistory(_ state: HistoryState) {
        if case .loaded = state.phase, !isLive("history") {
            heldHistory = state
            if let message = state.errorMessage { banner.show(message, isError: true) }
            return
        }
        if case .loaded = state.phase {
            historyList.show(state.entries, unscanned: state.unscanned)
            let empty = state.entries.isEmpty && state.unscanned.isEmpty
            gtk_stack_set_visible_child_name(crate_stack(historyStack), empty ? "empty" : "list")
        }
        if let message = state.errorMessage { banner.show(message, isError: true) }
    }

    private static func spinnerPage() -> UnsafeMutablePointer<GtkWidget> {
        let spinner = gtk_spinner_new()!
        Gtk.spin(spinner, true)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        return spinner
    }
}
