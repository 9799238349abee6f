import CGtk
import CrateCore

/// The crate as a virtualised GtkGridView of album ids (see HistoryListView for why ids).
@MainActor
final class AlbumGridView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let model: OpaquePointer
    private let selection: OpaquePointer
    private let gridView: UnsafeMutablePointer<GtkWidget>
    private var summaries: [Int64: AlbumSummary] = [:]
    private var order: [Int64] = []
    private var cells: [UnsafeMutableRawPointer: AlbumGridCell] = [:]
    private var isUpdating = false
    /// Called when the user selects (clicks, arrows, Enter) an album.
    var onSelect: ((Int64?) -> Void)?
    /// Called when an album's play button is pressed.
    var onPlay: ((Int64) -> Void)?
    /// Hearts and ✕s by release group (from the wall's store).
    private var ratings: [MBID: AlbumRating] = [:]
    /// A cell's heart or ✕ was pressed.
    var onRate: ((RatedAlbum, AlbumRating?) -> Void)?
    /// The album playing (true) or paused (false) now.
    private var nowPlaying: (id: Int64, playing: Bool)?
    /// The now-playing mark changed (test events).
    var onNowPlaying: ((Int64?) -> Void)?

    init() {
        model = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(crate_list_model(g_object_ref(UnsafeMutableRawPointer(model))))!
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory = gtk_signal_list_item_factory_new()!
        gridView = gtk_grid_view_new(selection, factory)!
        gtk_grid_view_set_max_columns(crate_grid_view(gridView), 12)
        gtk_grid_view_set_min_columns(crate_grid_view(gridView), 1)
        gtk_widget_add_css_class(gridView, "album-grid")
        Gtk.setAccessibleLabel(gridView, "Albums in your crate")
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), gridView)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_hexpand(widget, 1)

        let scope = GObjectScope.of(widget)
        scope.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let cell = AlbumGridCell()
            cell.onPlay = { [weak self] id in self?.onPlay?(id) }
            cell.onRate = { [weak self] album, rating in self?.onRate?(album, rating) }
            self.cells[item] = cell
            gtk_list_item_set_child(crate_list_item(item), cell.widget)
        }
        scope.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let cell = self.cells[item],
                  let id = Self.albumID(of: gtk_list_item_get_item(crate_list_item(item))),
                  let summary = self.summaries[id] else { return }
            cell.show(summary, rating: MBID(validating: summary.album.musicBrainzReleaseGroupID).flatMap { self.ratings[$0] })
            cell.setNowPlaying(self.nowPlaying?.id == id ? self.nowPlaying?.playing : nil)
        }
        scope.connect(factory, "unbind") { [weak self] item in
            guard let self, let item else { return }
            self.cells[item]?.clear()
        }
        scope.connect(factory, "teardown") { [weak self] item in
            guard let self, let item else { return }
            self.cells[item] = nil
        }
        scope.connect(selection, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.isUpdating else { return }
            self.onSelect?(self.selectedID)
        }
    }

    /// New hearts and ✕s: the cells on screen show them at once.
    func show(ratings: [MBID: AlbumRating]) {
        guard ratings != self.ratings else { return }
        self.ratings = ratings
        for cell in cells.values {
            cell.show(rating: cell.boundAlbum.flatMap { ratings[$0.releaseGroupID] })
        }
    }

    /// Replaces the grid's albums, keeping the selection when the album is still there.
    func show(_ albums: [AlbumSummary], selected: Int64?) {
        let previous = summaries
        summaries = Dictionary(albums.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let ids = albums.map(\.id)
        isUpdating = true
        defer { isUpdating = false }
        if ids != order {
            order = ids
            let removed = g_list_model_get_n_items(crate_list_model(UnsafeMutableRawPointer(model)))
            Gtk.withCStringArray(ids.map { String($0) }) { gtk_string_list_splice(model, 0, removed, $0) }
        } else {
            // Same albums: replace only the items whose details changed (e.g. artwork arrived),
            // so GTK rebinds those cells and keeps the scroll position.
            for (index, id) in ids.enumerated() where previous[id] != summaries[id] {
                Gtk.withCStringArray([String(id)]) { gtk_string_list_splice(model, UInt32(index), 1, $0) }
            }
        }
        let position = selected.flatMap { ids.firstIndex(of: $0) }.map { UInt32($0) } ?? UInt32(GTK_INVALID_LIST_POSITION)
        gtk_single_selection_set_selected(selection, position)
    }

    /// Marks the album playing now (nil: nothing plays).
    func setNowPlaying(albumID: Int64?, playing: Bool) {
        let next = albumID.map { (id: $0, playing: playing) }
        guard next?.id != nowPlaying?.id || next?.playing != nowPlaying?.playing else { return }
        nowPlaying = next
        for cell in cells.values {
            cell.setNowPlaying(cell.boundID != nil && cell.boundID == albumID ? playing : nil)
        }
        onNowPlaying?(albumID)
    }

    func focus() {
        gtk_widget_grab_focus(gridView)
    }

    /// Back to the first row (a new search or sort).
    func scrollToTop() {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(crate_scrolled_window(widget)) else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_lower(adjustment))
    }

    private var selectedID: Int64? {
        Self.albumID(of: gtk_single_selection_get_selected_item(selection))
    }

    private static func albumID(of item: UnsafeMutableRawPointer?) -> Int64? {
        guard let item, let text = gtk_string_object_get_string(crate_string_object(item)) else { return nil }
        return Int64(String(cString: text))
    }
}
