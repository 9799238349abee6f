import CGtk
import CrateCore

/// The main window: header bar, notice banner, and the history (or the empty state).
@MainActor
final class MainWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let banner = NoticeBanner()
    private let emptyState = EmptyStateView(
        title: "Scan your first album to begin",
        detail: "Crate identifies an album from a photo of its cover and keeps every album you meet here, even offline."
    )
    private let historyList = HistoryListView()
    private var historyStore: HistoryStore?
    private var tokens: [ObservationToken] = []

    init(application: UnsafeMutablePointer<GtkApplication>) {
        widget = gtk_application_window_new(application)!
        gtk_window_set_title(crate_window(widget), "Crate")
        gtk_window_set_default_size(crate_window(widget), 960, 680)
        gtk_window_set_icon_name(crate_window(widget), CrateVersion.applicationID)

        let header = gtk_header_bar_new()!
        gtk_header_bar_pack_end(crate_header_bar(header), Self.makeMenuButton())
        gtk_window_set_titlebar(crate_window(widget), header)

        stack = gtk_stack_new()!
        gtk_stack_set_transition_type(crate_stack(stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        gtk_stack_add_named(crate_stack(stack), emptyState.widget, "empty")
        gtk_stack_add_named(crate_stack(stack), historyList.widget, "history")
        gtk_stack_add_named(crate_stack(stack), Self.loadingPage(), "loading")
        gtk_stack_set_visible_child_name(crate_stack(stack), "loading")

        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(content, banner.widget)
        Gtk.append(content, stack)
        gtk_window_set_child(crate_window(widget), content)

        Actions.add(to: widget, "close") { [weak self] in
            guard let self else { return }
            gtk_window_close(crate_window(self.widget))
        }
        Actions.add(to: widget, "show-history") { [weak self] in
            guard let self, self.historyStore != nil else { return }
            Task { await self.historyStore?.reload() }
        }
    }

    func present() {
        gtk_window_present(crate_window(widget))
    }

    /// Binds the window to the library's stores.
    func attach(history: HistoryStore, database: AppDatabase) {
        historyStore = history
        history.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
        if let notice = database.recoveryNotice {
            banner.show(notice)
        } else if database.isReadOnly, let url = database.fileURL {
            banner.show(CrateError.databaseNewerThanApp(path: url.path).message)
        }
        Task { await history.reload() }
    }

    /// Shows why the library could not be opened (e.g. an unwritable data directory).
    func showLibraryError(_ message: String) {
        emptyState.update(title: "Crate cannot open your library", detail: message)
        gtk_stack_set_visible_child_name(crate_stack(stack), "empty")
        banner.show(message, isError: true)
    }

    /// Files passed on the command line or opened from a file manager.
    func receive(files: [String]) {
        Log.notice("received \(files.count) file(s) to scan")
    }

    // MARK: - Private

    private func render(_ state: HistoryState) {
        switch state.phase {
        case .loading:
            gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        case .failed(let message):
            showLibraryError(message)
        case .loaded:
            historyList.show(state.entries)
            gtk_stack_set_visible_child_name(crate_stack(stack), state.entries.isEmpty ? "empty" : "history")
        }
        if let message = state.errorMessage { banner.show(message, isError: true) }
    }

    private static func makeMenuButton() -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        g_menu_append(menu, "_About Crate", "app.about")
        g_menu_append(menu, "_Quit", "app.quit")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(crate_menu_button(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(crate_menu_button(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_widget_set_tooltip_text(button, "Main menu")
        Gtk.setAccessibleLabel(button, "Main menu")
        g_object_unref(UnsafeMutableRawPointer(menu))
        return button
    }

    private static func loadingPage() -> UnsafeMutablePointer<GtkWidget> {
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(OpaquePointer(spinner))
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        return spinner
    }
}
