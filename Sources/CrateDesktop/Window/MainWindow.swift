import CGtk
import CrateCore
import Foundation

// Longer than most files here: the shell's layout, its start-up hold-back and the routing
// between pages; its actions, Escape and header state are in MainWindow+Actions.
/// The main window: a shell that hosts the pages (Wall, Crate, History, CDs, and the artist page
/// over them) under the header bar, with the notices, the scan progress, the drop overlay and the
/// toasts over them. Pages never reach into one another: what crosses pages (play, open an
/// artist, show a scan) goes through the window.
@MainActor
final class MainWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let mainStack: UnsafeMutablePointer<GtkWidget>
    let banner = NoticeBanner()
    /// Non-blocking messages (AdwToastOverlay around the content).
    private(set) var toasts: Toasts!
    let header: HeaderBar
    let overlay: UnsafeMutablePointer<GtkWidget>
    let dropOverlay = DropOverlay()
    let progressView = ScanProgressView()
    let errorBanner = ErrorBanner()
    let searchBar: UnsafeMutablePointer<GtkWidget>
    /// Typed and USB-scanned barcodes (Ctrl+B, or a digit typed on the crate page).
    let barcodeBar = BarcodeBar()
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    let contentBox: UnsafeMutablePointer<GtkWidget>
    /// Space, the other player keys and Escape, before the focused widget sees them.
    private(set) var keys: WindowKeys!
    /// Work left until the first page is on screen (see StartupQueue).
    let startup = StartupQueue()
    private(set) var crate: CratePageController!
    private(set) var history: HistoryPageController!
    private(set) var wall: WallPageController!
    private(set) var artist: ArtistPageController?
    private(set) var cds: CDsPageController?
    private(set) var scanning: ScanController?
    private(set) var playback: PlaybackController?
    /// The stores and services (the composition root); nil until the library opens.
    private(set) var model: AppModel?
    /// The first-run welcome, while it shows.
    private(set) var welcome: WelcomeView?
    /// Watches and re-indexes the music folders.
    var musicFolders: MusicFolderMonitor?
    /// "Scan photos that arrive in…" (CrateApplication+PhotoFolder), and its toast's subscription.
    var photoFolder: PhotoFolderMonitor?
    var photoFolderTokens: [ObservationToken] = []
    /// What Ctrl+Z undoes when History's last deletion is not newer (see `UndoSlot`).
    private(set) lazy var undo = UndoSlot { [weak self] in self?.toasts }
    /// What the window tells observers (the test hooks) that no store's state shows: a scan
    /// revealed in History, a web page opened, text copied.
    var onShowInHistory: ((Int64) -> Void)?, onOpenURI: ((String) -> Void)?, onCopy: ((String) -> Void)?
    /// The wall has shown its tiles (start-up settles on its page once they are drawn).
    private var wallTilesShown = false

    init(application: UnsafeMutablePointer<GtkApplication>) {
        widget = adw_application_window_new(application)!
        gtk_window_set_title(crate_window(widget), L10n.tr("Crate"))
        gtk_window_set_default_size(crate_window(widget), 1180, 760)
        gtk_window_set_icon_name(crate_window(widget), CrateVersion.applicationID)
        mainStack = adw_view_stack_new()!
        header = HeaderBar(stack: mainStack, scope: GObjectScope.of(widget))
        searchEntry = gtk_search_entry_new()!
        searchBar = gtk_search_bar_new()!
        contentBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        overlay = gtk_overlay_new()!
        crate = CratePageController(host: self)
        history = HistoryPageController(host: self)
        wall = WallPageController(host: self)
        for (page, name, title, icon) in [(wall.browser.widget, "wall", L10n.tr("Wall"), "view-grid-symbolic"),
                                          (crate.browser.widget, "crate", L10n.tr("Crate"), "media-optical-symbolic"),
                                          (history.widget, "history", L10n.tr("History"), "document-open-recent-symbolic")] {
            addPage(page, name: name, title: title, icon: icon)
        }
        // The window still opens on the crate (the UI tests start there); the wall is one click away.
        adw_view_stack_set_visible_child_name(crate_view_stack(mainStack), "crate")
        crate.isVisible = { [weak self] in self?.visiblePage == "crate" }
        history.isVisible = { [weak self] in self?.visiblePage == "history" }
        let onHeaderChange: () -> Void = { [weak self] in self?.updateHeader() }
        crate.onHeaderChange = onHeaderChange
        wall.onHeaderChange = onHeaderChange
        header.onLayoutChange = onHeaderChange
        crate.onCount = { [weak self] in self?.header.setCount($0) }
        header.onBack = { [weak self] in self?.back() }
        layOut()
        installActions()
        keys = WindowKeys.install(on: widget)
        keys.onEscape = { [weak self] in self?.escape() ?? false }
        watchStartup()
    }

    func present() {
        gtk_window_present(crate_window(widget))
    }

    /// Binds the pages to the library's stores.
    func attach(model: AppModel, database: AppDatabase) {
        self.model = model
        crate.attach(library: model.library, detail: model.detail, record: model.record, pressings: model.pressingsStore, discogsAccount: model.discogsAccount)
        installSortActions(model.library)
        ExportDialog.install(on: self, database: database)
        DiscogsImportBanner.install(on: self, model: model)
        history.attach(model.history, model: model)
        GObjectScope.of(widget).connect(searchEntry, "search-changed") { [weak self] in
            guard let self, let text = gtk_editable_get_text(crate_editable(self.searchEntry)) else { return }
            self.crate.search(String(cString: text))
        }
        if let notice = database.recoveryNotice ?? database.readOnlyNotice { banner.show(notice) }
    }

    /// `simulated`: the player is the log-backed stand-in (no sound); the panes say so.
    func attachPlayback(_ store: PlaybackStore, simulated: Bool) {
        let controller = PlaybackController(host: self, store: store)
        playback = controller
        Gtk.append(contentBox, controller.bar.widget)
        crate.attachPlayback(store, simulated: simulated)
        controller.onProblem = { [weak self, weak store] message in
            self?.crate.showPlaybackProblem(message, albumID: store?.state.value.refusedAlbumID)
        }
    }

    func attachScanning(_ store: ScanStore, model: AppModel) {
        scanning = ScanController(host: self, store: store, model: model)
        crate.attachCandidates(to: store, model: model)
    }

    func attachWall(_ store: WallStore, detail: AlbumDetailStore, genres: GenreFeedStore) {
        wall.attach(store, detail: detail)
        wall.attachGenres(genres)
        crate.attachRatings(store) { [weak self] album, rating in await self?.wall.rate(album, rating) }
    }

    func attachArtists(_ store: ArtistStore, detail: AlbumDetailStore, thumbnails: @escaping @MainActor () -> ThumbnailFiles?, coverArt: URL) {
        let controller = ArtistPageController(host: self, store: store, detail: detail, thumbnails: thumbnails, coverArt: coverArt)
        artist = controller
        addOverPages(controller.browser.widget)
        controller.onHeaderChange = { [weak self] in self?.updateHeader() }
        controller.onClose = { [weak self] in if self?.visiblePage == "crate" { self?.crate.focus() } }
        GObjectScope.of(widget).connect(mainStack, "notify::visible-child-name") { [weak controller] (_: UnsafeMutableRawPointer?) in
            controller?.close()
        }
    }

    func attachCDs(_ store: CDsStore, playerText: String, mprisText: @escaping @MainActor () -> String) {
        let controller = CDsPageController(host: self, store: store, playback: playback?.store, playerText: playerText, mprisText: mprisText)
        cds = controller
        // The controller and the store live as long as the page's widget.
        GObjectScope.of(controller.page.widget).keepAlive(controller)
        GObjectScope.of(controller.page.widget).keepAlive(store)
        addPage(controller.page.widget, name: "cds", title: L10n.tr("CDs"), icon: "media-optical-cd-audio-symbolic")
        Actions.add(to: widget, "show-cds") { [weak self] in self?.showPage("cds") }
        Actions.add(to: widget, "show-diagnostics") { [weak controller] in controller?.showDiagnostics() }
        Actions.add(to: widget, "own-album") { [weak self] in self?.crate.pane?.own() }
        Actions.add(to: widget, "want-album") { [weak self] in self?.crate.pane?.toggleWanted() }
    }

    // MARK: - Routing between pages

    /// Plays an album (optionally from a track); the albums after it in the crate's grid follow,
    /// unless `after` names what follows (the wallet's discs).
    func play(albumID: Int64, track: TrackSlot?, after: [Int64]? = nil) {
        guard let playback else { return }
        crate.showPlaybackProblem(nil, albumID: nil)
        playback.play(albumID: albumID, track: track, after: after ?? crate.albumIDs(from: albumID))
    }

    /// Opens the artist page for an album's artist.
    func openArtist(name: String, releaseGroup: MBID?) {
        artist?.open(name: name, releaseGroup: releaseGroup)
    }

    /// A scan was saved: the crate shows its album with the review.
    func show(scanResult result: ScanResult) async {
        guard result.entry.album.id != nil else { return }
        showPage("crate")
        await crate.show(scanResult: result)
    }

    func receive(files: [String]) {
        guard let scanning else {
            banner.show(L10n.tr("Scanning is unavailable until the library opens."), isError: true)
            return
        }
        scanning.receive(files: files)
    }

    func receive(texture: OpaquePointer) {
        scanning?.receive(texture: texture)
    }

    /// Shows a page ("wall", "crate", "history", "cds") and moves keyboard focus into it (arrows,
    /// Delete, Space work at once).
    func showPage(_ name: String) {
        makeLive(name)
        adw_view_stack_set_visible_child_name(crate_view_stack(mainStack), name)
        if name == "history" { history.focus() } else { crate.focus() }
    }

    /// "wall", "crate", "history" or "cds".
    var visiblePage: String? {
        adw_view_stack_get_visible_child_name(crate_view_stack(mainStack)).map { String(cString: $0) }
    }

    /// The crate's grid and History's list are filled only once their page is shown or the
    /// start-up has settled: a grid view builds and binds `max-columns` × 30 cells and a list
    /// view 200 rows whatever their height, which cost the first page ~100 ms each on pages
    /// nobody was looking at.
    func makeLive(_ page: String) {
        if page == "crate" { crate.makeLive() }
        if page == "history" { history.makeLive() }
    }

    // MARK: - Welcome and errors

    /// The first-run welcome over the window's content, until a provider is saved or skipped.
    func showWelcome(store: PreferencesStore) {
        let view = WelcomeView(store: store)
        welcome = view
        addOverPages(view.widget)
        view.onDone = { [weak self] in self?.closeWelcome() }
        onWelcome?(view)
    }
    /// Called when the welcome shows (nil: when it closed).
    var onWelcome: ((WelcomeView?) -> Void)?

    func closeWelcome() {
        guard let welcome else { return }
        gtk_overlay_remove_overlay(crate_overlay(overlay), welcome.widget)
        self.welcome = nil
        crate.focus()
        onWelcome?(nil)
    }

    /// Shows why the library could not be opened (e.g. an unwritable data directory).
    func showLibraryError(_ message: String) {
        crate.showLibraryError(message)
        banner.show(message, isError: true)
    }

    // MARK: - Private

    private func addPage(_ page: UnsafeMutablePointer<GtkWidget>, name: String, title: String, icon: String) {
        let stackPage = adw_view_stack_add_titled(crate_view_stack(mainStack), page, name, title)
        adw_view_stack_page_set_icon_name(stackPage, icon)
    }

    /// Puts a layer over the pages, under the progress card, the error banner and the drop overlay.
    private func addOverPages(_ layer: UnsafeMutablePointer<GtkWidget>) {
        gtk_overlay_add_overlay(crate_overlay(overlay), layer)
        for top in [progressView.widget, errorBanner.widget, dropOverlay.widget] {
            g_object_ref(UnsafeMutableRawPointer(top))
            gtk_overlay_remove_overlay(crate_overlay(overlay), top)
            gtk_overlay_add_overlay(crate_overlay(overlay), top)
            g_object_unref(UnsafeMutableRawPointer(top))
        }
    }

    private func layOut() {
        Gtk.setAccessibleLabel(searchEntry, L10n.tr("Search the crate"))
        gtk_widget_set_hexpand(searchEntry, 1)
        // Up to 400 px wide, and narrower with the window (it fits at 360 px).
        let searchClamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(searchClamp), 400)
        adw_clamp_set_child(crate_clamp(searchClamp), searchEntry)
        gtk_search_bar_set_child(crate_search_bar(searchBar), searchClamp)
        gtk_search_bar_connect_entry(crate_search_bar(searchBar), crate_editable(searchEntry))
        gtk_search_bar_set_show_close_button(crate_search_bar(searchBar), 1)
        crate_search_bar_label_close_button(searchBar, L10n.tr("Close the search"))
        Gtk.append(contentBox, banner.widget)
        Gtk.append(contentBox, searchBar)
        Gtk.append(contentBox, barcodeBar.widget)
        gtk_widget_set_vexpand(mainStack, 1)
        Gtk.append(contentBox, mainStack)
        gtk_overlay_set_child(crate_overlay(overlay), contentBox)
        gtk_widget_set_vexpand(overlay, 1)
        for layer in [progressView.widget, errorBanner.widget, dropOverlay.widget] {
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
        }
        let toastOverlay = Toasts(content: overlay)
        gtk_widget_set_vexpand(toastOverlay.widget, 1)
        toasts = toastOverlay
        // AdwApplicationWindow has no title bar slot: the header bar is the first row of the
        // content, and the page switcher moves to a bottom bar when the header is too narrow.
        let window = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(window, header.widget)
        Gtk.append(window, toastOverlay.widget)
        Gtk.append(window, header.switcherBar)
        adw_application_window_set_content(crate_adw_application_window(widget), window)
        GObjectScope.of(widget).connect(mainStack, "notify::visible-child-name") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.updateHeader()
        }
    }

    /// Only the start-up holds anything back: the first show gives the grid and the wall only
    /// what fits; the rest, and the pages nobody looks at, once the first page is on screen.
    private func watchStartup() {
        GObjectScope.of(widget).connect(widget, "map") { [weak self] in
            StartupTiming.mark("window mapped")
            guard let self else { return }
            self.wall.page.stopHoldingBack()
            self.startup.windowMapped(self.widget)
        }
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(crate_window(widget), &width, &height)
        let grid = crate.grid, wallPage = wall.page
        grid.holdBack(forWindowWidth: width, height: height)
        wallPage.holdBack(forWindowWidth: width, height: height)
        wallPage.onHeld = { [weak self] in
            self?.startup.later("wall filled") { wallPage.revealHeld() }
        }
        startup.later("first shows whole") { grid.stopHoldingBack() }
        startup.later("crate grid") { [weak self] in self?.makeLive("crate") }
        startup.later("history list") { [weak self] in self?.makeLive("history") }
        GObjectScope.of(widget).connect(mainStack, "notify::visible-child-name") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, let page = self.visiblePage else { return }
            self.makeLive(page)
            // The stored wall is usually in place before a launch option turns to its page.
            if page == "wall", self.wallTilesShown { self.startup.settleAfterNextFrame("wall") }
        }
        grid.onHeld = { [weak self] in
            self?.startup.later("grid filled") { grid.revealHeld() }
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
    }
}
