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
    /// The rows' keys in list order (a heading looks at the row above).
    private var keys: [String] = []
    /// Photos without a scan, listed first; their list keys are "u<id>".
    private var unscannedByID: [Int64: UnscannedPhoto] = [:]
    private var rows: [UnsafeMutableRawPointer: HistoryRow] = [:]
    private var count = 0
    /// Called when a row near the end is shown, to fetch the next page.
    var onNearEnd: (() -> Void)?
    /// A failed row's Retry and Remove.
    var onRetry: ((UnscannedPhoto) -> Void)?
    var onRemove: ((UnscannedPhoto) -> Void)?
    /// A failed row's "Tell Crate what it is".
    var onIdentify: ((UnscannedPhoto) -> Void)?
    /// The selected position changed (test events).
    var onSelectionChanged: ((Int?) -> Void)?
    /// A scan was activated (double click, Enter): its album opens.
    var onActivate: ((HistoryEntry) -> Void)?
    /// A scan's context menu is asked for (secondary click at a point of the row, or the Menu key).
    var onContextMenu: ((HistoryEntry, UnsafeMutablePointer<GtkWidget>, (x: Double, y: Double)?) -> Void)?

    init() {
        model = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(crate_list_model(g_object_ref(UnsafeMutableRawPointer(model))))!
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(selection, factory)!
        gtk_widget_add_css_class(listView, "history-list")
        Gtk.setAccessibleLabel(listView, L10n.tr("Scan history"))
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), listView)
        gtk_widget_set_vexpand(widget, 1)
        ContextMenu.onMenuKey(listView) { [weak self] in self?.menuKey() }

        let scope = GObjectScope.of(widget)
        scope.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let row = HistoryRow()
            ContextMenu.onSecondaryClick(row.widget) { [weak self, weak row] x, y in
                guard let self, let row, let entry = row.entry else { return }
                self.onContextMenu?(entry, row.widget, (x, y))
            }
            self.rows[item] = row
            gtk_list_item_set_child(crate_list_item(item), row.widget)
        }
        scope.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let row = self.rows[item] else { return }
            guard let object = gtk_list_item_get_item(crate_list_item(item)),
                  let cString = gtk_string_object_get_string(crate_string_object(object)) else { return }
            let key = String(cString: cString)
            if key.hasPrefix("u"), let id = Int64(key.dropFirst()), let photo = self.unscannedByID[id] {
                row.show(photo, onRetry: { [weak self] in self?.onRetry?(photo) }, onRemove: { [weak self] in self?.onRemove?(photo) },
                         onIdentify: { [weak self] in self?.onIdentify?(photo) })
                row.setDayHeading(nil)
            } else if let id = Int64(key), let entry = self.entriesByID[id] {
                row.show(entry)
                let position = Int(gtk_list_item_get_position(crate_list_item(item)))
                let previous = position > 0 && position - 1 < self.keys.count ? Int64(self.keys[position - 1]).flatMap { self.entriesByID[$0] } : nil
                if DayHeading.startsDay(entry.scan.scannedAt, after: previous?.scan.scannedAt) {
                    let heading = DayHeading.title(for: entry.scan.scannedAt)
                    row.setDayHeading(heading)
                    WidgetEvents.say("history-day \(heading)")
                } else {
                    row.setDayHeading(nil)
                }
            } else {
                return
            }
            if Int(gtk_list_item_get_position(crate_list_item(item))) >= self.count - 20 { self.onNearEnd?() }
        }
        scope.connect(factory, "teardown") { [weak self] item in
            guard let self, let item else { return }
            self.rows[item] = nil
        }
        // A double click (or Enter) on a scan opens its album; the click before it selected the row.
        scope.connect(listView, "activate") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, let id = self.selectedScanID, let entry = self.entriesByID[id] else { return }
            self.onActivate?(entry)
        }
        scope.connect(selection, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            self.onSelectionChanged?(self.selectedPosition)
        }
    }

    /// The Menu key / Shift+F10 on the list: the selected scan's menu.
    private func menuKey() {
        guard let id = selectedScanID, let row = rows.values.first(where: { $0.entry?.id == id }), let entry = row.entry else { return }
        onContextMenu?(entry, row.widget, nil)
    }

    func focus() {
        gtk_widget_grab_focus(listView)
    }

    /// Bound rows of photos without a scan, and how many of them cut their text (test events).
    func problemRowsCut() -> (rows: Int, cut: Int) {
        let problems = rows.values.filter { gtk_widget_get_visible($0.widget) != 0 && $0.entry == nil }
        return (problems.count, problems.filter(\.isProblemTextCut).count)
    }

    /// The scan the keyboard focus / selection is on.
    var selectedScanID: Int64? {
        selectedKey.flatMap { Int64($0) }
    }

    /// The photo without a scan the selection is on.
    var selectedUnscanned: UnscannedPhoto? {
        guard let key = selectedKey, key.hasPrefix("u"), let id = Int64(key.dropFirst()) else { return nil }
        return unscannedByID[id]
    }

    /// The selected row's position (to keep the selection at the same place after a delete).
    var selectedPosition: Int? {
        let position = gtk_single_selection_get_selected(selection)
        return position == UInt32(GTK_INVALID_LIST_POSITION) ? nil : Int(position)
    }

    /// Selects the row at `position` (or the last row, when the list got shorter).
    func select(position: Int) {
        guard count > 0 else { return }
        gtk_single_selection_set_selected(selection, UInt32(min(position, count - 1)))
    }

    /// The laid-out thumbnails of the rows on screen, "WxH" each (test events).
    func thumbnailSizes() -> [String] {
        rows.values.compactMap(\.thumbnailSize).map { "\($0.width)x\($0.height)" }
    }

    /// Brings a row into view.
    func scroll(to position: Int) {
        guard position < count else { return }
        crate_list_scroll_to_item(listView, UInt32(position))
    }

    /// Where a scan's row is now.
    func position(ofScan id: Int64) -> Int? {
        let key = String(id)
        return (0..<count).first { index in
            gtk_string_list_get_string(model, UInt32(index)).map { String(cString: $0) == key } ?? false
        }
    }

    private var selectedKey: String? {
        guard let item = gtk_single_selection_get_selected_item(selection),
              let text = gtk_string_object_get_string(crate_string_object(item)) else { return nil }
        return String(cString: text)
    }

    /// Delete removes the selected scan (the window's `win.delete-scan` action).
    func enableDeleteShortcut() {
        crate_add_local_shortcut(listView, "Delete", "win.delete-scan")
    }

    /// Replaces the list's contents with the photos without a scan, then `entries` (newest first).
    /// Only what changed is spliced, so the rows around it (and the selection) stay put.
    func show(_ entries: [HistoryEntry], unscanned: [UnscannedPhoto] = []) {
        let oldEntries = entriesByID, oldUnscanned = unscannedByID
        entriesByID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        unscannedByID = Dictionary(unscanned.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = unscanned.map { "u\($0.id)" } + entries.map { String($0.id) }
        keys = ids
        let current = (0..<count).compactMap { index -> String? in
            gtk_string_list_get_string(model, UInt32(index)).map { String(cString: $0) }
        }
        count = ids.count
        var prefix = 0
        while prefix < min(ids.count, current.count), ids[prefix] == current[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(ids.count, current.count) - prefix, ids[ids.count - 1 - suffix] == current[current.count - 1 - suffix] { suffix += 1 }
        if prefix + suffix < max(ids.count, current.count) {
            let inserted = Array(ids[prefix..<(ids.count - suffix)])
            Gtk.withCStringArray(inserted) { gtk_string_list_splice(model, UInt32(prefix), UInt32(current.count - prefix - suffix), $0) }
        }
        // Rows kept whose content changed (artwork arrived, a reason changed) are bound again.
        for (index, key) in ids.enumerated() where index < prefix || index >= ids.count - suffix {
            var changed: Bool
            if key.hasPrefix("u"), let id = Int64(key.dropFirst()) { changed = oldUnscanned[id] != unscannedByID[id] }
            else if let id = Int64(key) { changed = oldEntries[id] != entriesByID[id] }
            else { changed = false }
            // The row above changed (a delete or an insert just above): its day heading may too.
            if index == prefix + (ids.count - prefix - suffix) && index > 0 && current.count > 0 { changed = true }
            if changed { Gtk.withCStringArray([key]) { gtk_string_list_splice(model, UInt32(index), 1, $0) } }
        }
    }
}
