import CGtk
import CrateCore

/// A second top-level window built from the widgets the main window uses (banners, toast, scan
/// progress, grid and detail pane in their leaflet, history list, drop target, window keys), for `--window-cycle-test`. Its Swift
/// side is kept alive by its widget's scope, so closing the window releases all of it.
@MainActor
final class SpareWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let banner = NoticeBanner()
    private let errorBanner = ErrorBanner()
    private let toast = UndoToast()
    private let progress = ScanProgressView()
    private let grid = AlbumGridView()
    private let history = HistoryListView()
    private let pane: AlbumDetailPane?

    /// Called from `deinit`, to count released windows.
    private let onRelease: @Sendable () -> Void

    init(detail: AlbumDetailStore?, dropTarget: MainWindow?, onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
        widget = gtk_window_new()!
        gtk_window_set_title(crate_window(widget), L10n.tr("Crate (window-cycle test)"))
        gtk_window_set_default_size(crate_window(widget), 900, 600)
        pane = detail.map { AlbumDetailPane(store: $0) }
        let content = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0)
        // Grid and pane in the main window's leaflet, whose handlers end with this window.
        let browser = CrateBrowser(grid: grid.widget)
        if let pane {
            browser.setDetail(pane.widget)
            browser.showDetail()
        }
        gtk_widget_set_hexpand(browser.widget, 1)
        Gtk.append(content, browser.widget)
        Gtk.append(content, history.widget)
        GObjectScope.of(browser.widget).keepAlive(browser)
        let column = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(column, banner.widget)
        gtk_widget_set_vexpand(content, 1)
        Gtk.append(column, content)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(overlay), column)
        for layer in [toast.widget, progress.widget, errorBanner.widget] {
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
        }
        gtk_window_set_child(crate_window(widget), overlay)
        if let dropTarget { DropHandler.install(on: widget, window: dropTarget) }
        _ = WindowKeys.install(on: widget)
        GObjectScope.of(widget).keepAlive(self)
    }

    isolated deinit {
        onRelease()
    }

    /// Starts everything that schedules work on the GLib loop: the banner and toast timeouts and
    /// the progress animation, so closing the window must remove them.
    func exercise() {
        banner.show(L10n.tr("Window-cycle test"))
        errorBanner.show(L10n.tr("Unable to identify this cover art"))
        toast.show(L10n.tr("Deleted scan"), onUndo: {}, onExpire: {})
        var state = ScanState()
        state.phase = .identifying
        state.message = ScanStore.identifyingMessage
        progress.render(state)
        grid.show(AlbumListing(), firstPage: [], selected: nil)
        history.show([])
    }
}
