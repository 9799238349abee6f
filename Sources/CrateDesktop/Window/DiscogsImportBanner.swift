import CGtk
import CrateCore
import Foundation

/// The main menu's "Import from Discogs": a Discogs CSV export (file chooser) or the API (when
/// a token is set), and a small banner under the header bar with a progress bar, the count and
/// the time left while it runs (docs/decisions/0045-discogs-import.md). An import a quit or a
/// crash interrupted goes on at the next start.
@MainActor
final class DiscogsImportBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let progress: UnsafeMutablePointer<GtkWidget>
    private let button: UnsafeMutablePointer<GtkWidget>
    private weak var model: AppModel?
    private var store: DiscogsImportStore?
    private var token: ObservationToken?
    /// The window's banner (the test hooks start an import through it and follow its text).
    private(set) static weak var current: DiscogsImportBanner?
    /// Called with the banner's text each time it changes.
    var onShow: ((String) -> Void)?

    static func install(on window: MainWindow, model: AppModel) {
        let banner = DiscogsImportBanner(model: model)
        current = banner
        gtk_box_insert_child_after(crate_box(window.contentBox), banner.widget, window.banner.widget)
        // The actions hold the banner for the window's life.
        Actions.add(to: window.widget, "import-discogs-csv") { [weak window] in
            guard let window else { return }
            FileChooser.present(over: window.widget, title: L10n.tr("Import a Discogs Export"), action: GTK_FILE_CHOOSER_ACTION_OPEN,
                                accept: L10n.tr("_Import"), configure: { chooser in
                let filter = gtk_file_filter_new()!
                gtk_file_filter_set_name(filter, L10n.tr("CSV files"))
                gtk_file_filter_add_mime_type(filter, "text/csv")
                gtk_file_filter_add_pattern(filter, "*.csv")
                gtk_file_chooser_add_filter(chooser, filter)
            }) { path, _ in banner.importCSV(path) }
        }
        Actions.add(to: window.widget, "import-discogs") { banner.run { $0.importFromDiscogs() } }
        banner.run { $0.resumeIfPending() }
    }

    private init(model: AppModel) {
        self.model = model
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        // The text and Pause on a line, the bar the whole width under them: narrow enough for a
        // 360 px window.
        let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6, classes: ["notice-banner"])
        let line = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        label = Gtk.label("")
        gtk_label_set_wrap(crate_label(label), 1)
        gtk_label_set_width_chars(crate_label(label), 12)
        gtk_widget_set_hexpand(label, 1)
        progress = gtk_progress_bar_new()!
        gtk_widget_set_hexpand(progress, 1)
        button = gtk_button_new_with_label(L10n.tr("Pause"))!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        GObjectScope.of(widget).connect(button, "clicked") { [weak self] in
            guard let store = self?.store else { return }
            if store.isRunning { store.cancel() } else { store.dismiss() }
        }
        Gtk.append(line, label)
        Gtk.append(line, button)
        Gtk.append(box, line)
        Gtk.append(box, progress)
        gtk_revealer_set_child(crate_revealer(widget), box)
    }

    func importCSV(_ path: String) {
        run { $0.importCSV(URL(fileURLWithPath: path)) }
    }

    /// Runs `intent` on a store made from the services as they are now (a token set in
    /// Preferences since the start counts); one import at a time.
    private func run(_ intent: (DiscogsImportStore) -> Void) {
        if store?.isRunning == true { return }
        guard let model else { return }
        let store = DiscogsImportStore(database: model.environment.database, musicBrainz: model.services.musicBrainz, discogs: model.services.discogs)
        self.store = store
        token = store.state.subscribe { [weak self] in self?.show($0) }
        intent(store)
    }

    private func show(_ state: DiscogsImportState) {
        let text: String, fraction: Double, running: Bool
        switch state.phase {
        case .idle:
            gtk_revealer_set_reveal_child(crate_revealer(widget), 0)
            return
        case .reading: (text, fraction, running) = (L10n.tr("Reading your Discogs records…"), 0, true)
        case .importing(let p): (text, fraction, running) = (DiscogsImportState.describe(p), p.fraction, true)
        case .finished(let message): (text, fraction, running) = (message, 1, false)
        case .failed(let message): (text, fraction, running) = (message, 0, false)
        }
        // Network and file text: plain text, never markup.
        gtk_label_set_text(crate_label(label), text)
        gtk_progress_bar_set_fraction(OpaquePointer(progress), min(1, max(0, fraction)))
        gtk_widget_set_visible(progress, running ? 1 : 0)
        gtk_button_set_label(crate_button(button), running ? L10n.tr("Pause") : L10n.tr("Dismiss"))
        if case .failed = state.phase { gtk_widget_add_css_class(widget, "error") } else { gtk_widget_remove_css_class(widget, "error") }
        gtk_revealer_set_reveal_child(crate_revealer(widget), 1)
        onShow?(text)
    }
}
