import CGtk
import CrateCore

/// The scan history as a virtualised GtkListView.
///
/// The model is a GtkStringList of scan ids: GTK only creates rows for what is visible and asks us
/// to bind an id to a row, so 100 000 scans cost 100 000 short strings, not 100 000 widgets.
@MainActor
final class HistoryListView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let model: OpaquePointer
    private let selection: OpaquePointer
    private let listView: UnsafeMutablePointer<GtkWidget>
    private var entriesByID: [Int64: HistoryEntry] = [:]
    private var rows: [UnsafeMutableRawPointer: HistoryRow] = [:]
    private var count = 0
    /// Called when a row near the end is shown, to fetch the next page.
    var onNearEnd: (() -> Void)?

    init() {
        model = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(crate_list_model(g_object_ref(UnsafeMutableRawPointer(model))))!
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(selection, factory)!
        gtk_widget_add_css_class(listView, "history-list")
        Gtk.setAccessibleLabel(listView, "Scan history")
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), listView)
        gtk_widget_set_vexpand(widget, 1)

        let scope = GObjectScope.of(widget)
        scope.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let row = HistoryRow()
            self.rows[item] = row
            gtk_list_item_set_child(crate_list_item(item), row.widget)
        }
        scope.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let row = self.rows[item] else { return }
            guard let object = gtk_list_item_get_item(crate_list_item(item)),
                  let cString = gtk_string_object_get_string(crate_string_object(object)),
                  let id = Int64(String(cString: cString)),
                  let entry = self.entriesByID[id] else { return }
            row.show(entry)
            if Int(gtk_list_item_get_position(crate_list_item(item))) >= self.count - 20 { self.onNearEnd?() }
        }
        scope.connect(factory, "teardown") { [weak self] item in
            guard let self, let item else { return }
            self.rows[item] = nil
        }
    }

    func focus() {
        gtk_widget_grab_focus(listView)
    }

    /// The scan the keyboard focus / selection is on.
    var selectedScanID: Int64? {
        guard let item = gtk_single_selection_get_selected_item(selection),
              let text = gtk_string_object_get_string(crate_string_object(item)) else { return nil }
        return Int64(String(cString: text))
    }

    /// Delete removes the selected scan (the window's `win.delete-scan` action).
    func enableDeleteShortcut() {
        crate_add_local_shortcut(listView, "Delete", "win.delete-scan")
    }

    /// Replaces the list's contents with `entries` (newest first).
    func show(_ entries: [HistoryEntry]) {
        entriesByID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = entries.map { String($0.id) }
        let current = (0..<count).compactMap { index -> String? in
            gtk_string_list_get_string(model, UInt32(index)).map { String(cString: $0) }
        }
        count = ids.count
        // A next page only appends: keep the rows (and the scroll position) already there.
        if current.count < ids.count, Array(ids.prefix(current.count)) == current {
            Gtk.withCStringArray(Array(ids.dropFirst(current.count))) { gtk_string_list_splice(model, UInt32(current.count), 0, $0) }
            return
        }
        Gtk.withCStringArray(ids) { gtk_string_list_splice(model, 0, UInt32(current.count), $0) }
    }
}
