import CGtk
import Foundation
import CrateCore

/// The main window: header bar, notices, the crate (grid + detail pane) and the history.
@MainActor
final class MainWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let mainStack: UnsafeMutablePointer<GtkWidget>
    let banner = NoticeBanner()
    let toast = UndoToast()
    let grid = AlbumGridView()
    let historyList = HistoryListView()
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
    private let paned: UnsafeMutablePointer<GtkWidget>
    private let emptyState = EmptyStateView(
        title: "Scan your first album to begin",
        detail: "Crate identifies an album from a photo of its cover and keeps every album you meet here, even offline."
    )
    private let noResults = EmptyStateView(icon: "edit-find-symbolic", title: "No albums found", detail: "Try another artist, title, label or genre.")
    private let historyEmpty = EmptyStateView(icon: "document-open-recent-symbolic", title: "Scan your first album to begin", detail: "Every scan you make is listed here, newest first.")
    var library: LibraryStore?
    var history: HistoryStore?
    var detail: AlbumDetailStore?
    var playback: PlaybackStore?
    var playbackBar: PlaybackBar?
    let contentBox: UnsafeMutablePointer<GtkWidget>
    var detailPane: AlbumDetailPane?
    var tokens: [ObservationToken] = []

    init(application: UnsafeMutablePointer<GtkApplication>) {
        widget = gtk_application_window_new(application)!
        gtk_window_set_title(crate_window(widget), "Crate")
        gtk_window_set_default_size(crate_window(widget), 1180, 760)
        gtk_window_set_icon_name(crate_window(widget), CrateVersion.applicationID)

        crateStack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(crateStack), grid.widget, "grid")
        gtk_stack_add_named(crate_stack(crateStack), emptyState.widget, "empty")
        gtk_stack_add_named(crate_stack(crateStack), noResults.widget, "no-results")
        gtk_stack_add_named(crate_stack(crateStack), Self.spinnerPage(), "loading")
        gtk_stack_set_visible_child_name(crate_stack(crateStack), "loading")
        paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_paned_set_start_child(crate_paned(paned), crateStack)
        gtk_paned_set_resize_start_child(crate_paned(paned), 1)
        gtk_paned_set_shrink_end_child(crate_paned(paned), 0)
        gtk_paned_set_resize_end_child(crate_paned(paned), 0)

        historyStack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(historyStack), historyList.widget, "list")
        gtk_stack_add_named(crate_stack(historyStack), historyEmpty.widget, "empty")
        historyList.enableDeleteShortcut()

        mainStack = gtk_stack_new()!
        gtk_stack_set_transition_type(crate_stack(mainStack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_add_titled(crate_stack(mainStack), paned, "crate", "Crate")
        gtk_stack_add_titled(crate_stack(mainStack), historyStack, "history", "History")

        searchEntry = gtk_search_entry_new()!
        Gtk.setAccessibleLabel(searchEntry, "Search the crate")
        gtk_widget_set_size_request(searchEntry, 360, -1)
        searchBar = gtk_search_bar_new()!
        gtk_search_bar_set_child(crate_search_bar(searchBar), searchEntry)
        gtk_search_bar_connect_entry(crate_search_bar(searchBar), crate_editable(searchEntry))
        gtk_search_bar_set_show_close_button(crate_search_bar(searchBar), 1)

        contentBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let content = contentBox
        Gtk.append(content, banner.widget)
        Gtk.append(content, searchBar)
        gtk_widget_set_vexpand(mainStack, 1)
        Gtk.append(content, mainStack)
        overlay = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(overlay), content)
        for layer in [toast.widget, progressView.widget, errorBanner.widget, dropOverlay.widget] {
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
        }
        gtk_window_set_child(crate_window(widget), overlay)
        gtk_window_set_titlebar(crate_window(widget), makeHeaderBar())
        installActions()
        GObjectScope.of(widget).connect(widget, "map") { StartupTiming.mark("window mapped") }
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
        gtk_paned_set_end_child(crate_paned(paned), pane.widget)
        // Leave the detail pane its minimum (440 px) in the default 1180 px window.
        gtk_paned_set_position(crate_paned(paned), 720)
        tokens.append(contentsOf: bindStores(pane: pane))
        if TestEvents.isEnabled {
            tokens.append(contentsOf: TestEvents.report(library: library, history: history))
            tokens.append(contentsOf: TestEvents.reportSelection(library: library, detail: detail, window: widget,
                                                                 grid: grid.widget, playButton: pane.playAlbumButton))
        }
        if let notice = database.recoveryNotice {
            banner.show(notice)
        } else if database.isReadOnly, let url = database.fileURL {
            banner.show(CrateError.databaseNewerThanApp(path: url.path).message)
        }
    }

    /// Shows why the library could not be opened (e.g. an unwritable data directory).
    func showLibraryError(_ message: String) {
        emptyState.update(title: "Crate cannot open your library", detail: message)
        gtk_stack_set_visible_child_name(crate_stack(crateStack), "empty")
        banner.show(message, isError: true)
    }


    /// Shows "crate" or "history" and moves keyboard focus into it (arrows, Delete, Space work at once).
    func showPage(_ name: String) {
        gtk_stack_set_visible_child_name(crate_stack(mainStack), name)
        if name == "history" { historyList.focus() } else { grid.focus() }
    }

    // MARK: - Rendering

    func renderLibrary(_ state: LibraryState) {
        if case .loaded = state.phase { StartupTiming.mark("library shown (\(state.albums.count) albums)") }
        switch state.phase {
        case .loading:
            gtk_stack_set_visible_child_name(crate_stack(crateStack), "loading")
        case .failed(let message):
            showLibraryError(message)
        case .loaded:
            StartupTiming.mark("library loaded, filling grid")
            grid.show(state.albums, selected: state.selectedAlbumID)
            let page = !state.albums.isEmpty ? "grid" : (state.query.isEmpty ? "empty" : "no-results")
            gtk_stack_set_visible_child_name(crate_stack(crateStack), page)
        }
    }

    func renderHistory(_ state: HistoryState) {
        if case .loaded = state.phase {
            historyList.show(state.entries)
            gtk_stack_set_visible_child_name(crate_stack(historyStack), state.entries.isEmpty ? "empty" : "list")
        }
        if let message = state.errorMessage { banner.show(message, isError: true) }
    }

    private static func spinnerPage() -> UnsafeMutablePointer<GtkWidget> {
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(OpaquePointer(spinner))
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        return spinner
    }
}
