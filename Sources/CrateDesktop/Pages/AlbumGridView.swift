import CGtk
import CrateCore

// Longer than most files here: the lazy list model, the page cache and the cells' binding are
// one mechanism (a 100 000-album grid that reads 60 albums at a time); split, each half would
// need the other's internals.
/// The crate as a virtualised GtkGridView over a database-backed list model.
///
/// The model (`crate_lazy_model`, shim.h) only knows how many albums the listing has; GTK asks it
/// for the items it is about to show, and the grid reads those from SQLite a page at a time
/// (`AppDatabase.albumPage`), keeping a bounded number of pages. So opening a crate of 100 000
/// albums reads one page, not 100 000 rows. Items are album ids (see HistoryListView for why ids).
@MainActor
final class AlbumGridView {
    /// Albums per page read from the database.
    static let pageSize = 60
    /// Pages kept in memory (the least recently used go first).
    static let maximumPages = 40

    let widget: UnsafeMutablePointer<GtkWidget>
    private let model: OpaquePointer
    private let selection: OpaquePointer
    private let gridView: UnsafeMutablePointer<GtkWidget>
    private var listing = AlbumListing()
    private var pages: [Int: [AlbumSummary]] = [:]
    private var pageUse: [Int: Int] = [:]
    private var useClock = 0
    private var cells: [UnsafeMutableRawPointer: AlbumGridCell] = [:]
    /// One GtkStringObject per album in the pages held (a reference each), so GTK gets the same
    /// item for the same album every time it asks: a new object each time made it bind the cell
    /// again, over and over.
    private var items: [Int64: UnsafeMutableRawPointer] = [:]
    private var isUpdating = false
    /// Reads `limit` albums of a listing from `offset` (the library store's database).
    var fetchPage: ((AlbumListing, Int, Int) -> [AlbumSummary])?
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
    /// An album's context menu is asked for (secondary click at a point of its cell, or Menu key).
    var onContextMenu: ((AlbumSummary, UnsafeMutablePointer<GtkWidget>, (x: Double, y: Double)?) -> Void)?
    /// Called once, when the first cell shows its artwork (start-up timing).
    var onFirstCover: (() -> Void)?
    /// At start-up, how many albums GTK is given at first (see `holdBack(forWindowWidth:height:)`).
    private var firstShowLimit: Int?
    /// Positions from here on are in the listing but not yet in GTK's model.
    private var heldFrom: Int?
    /// The first show held albums back: the window calls `revealHeld()` once its first page is
    /// on screen.
    var onHeld: (() -> Void)?

    /// The C model's way back to this grid (weak: GTK may hold the model longer).
    private final class Link { weak var grid: AlbumGridView? }

    init() {
        let link = Link()
        model = crate_lazy_model_new({ position, data in
            guard let data else { return nil }
            let item = MainActor.assumeIsolated { () -> UInt in
                guard let grid = CallbackBox<Link>.borrow(data).grid else { return 0 }
                return UInt(bitPattern: grid.item(at: Int(position)))
            }
            return UnsafeMutableRawPointer(bitPattern: item)
        }, CallbackBox<Link>.retain(link), { data in
            if let data { CallbackBox<Link>.release(data) }
        })!
        selection = gtk_single_selection_new(crate_list_model(g_object_ref(UnsafeMutableRawPointer(model))))!
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory = gtk_signal_list_item_factory_new()!
        gridView = gtk_grid_view_new(selection, factory)!
        gtk_grid_view_set_max_columns(crate_grid_view(gridView), UInt32(Self.maximumColumns))
        gtk_grid_view_set_min_columns(crate_grid_view(gridView), 1)
        gtk_widget_add_css_class(gridView, "album-grid")
        Gtk.setAccessibleLabel(gridView, L10n.tr("Albums in your crate"))
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), gridView)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_hexpand(widget, 1)
        // The grid's own reference to the model goes with the widget (the model holds the link's
        // box: kept past the window, it would leak one per window).
        g_object_set_data_full(crate_object(UnsafeMutableRawPointer(widget)), "crate-grid-model", UnsafeMutableRawPointer(model)) { data in
            if let data { g_object_unref(data) }
        }
        link.grid = self
        // PageDown / PageUp move by the rows that fit in the window (GTK's own move about one
        // row in a grid of covers).
        crate_add_key_capture(gridView, { user, keyval, state in
            guard let user, state.rawValue == 0 else { return 0 }
            let direction = keyval == UInt32(GDK_KEY_Page_Down) ? 1 : keyval == UInt32(GDK_KEY_Page_Up) ? -1 : 0
            guard direction != 0 else { return 0 }
            return MainActor.assumeIsolated { CallbackBox<Link>.borrow(user).grid?.movePage(direction) ?? false } ? 1 : 0
        }, CallbackBox<Link>.retain(link), { user in
            if let user { CallbackBox<Link>.release(user) }
        })
        ContextMenu.onMenuKey(gridView) { [weak self] in
            guard let self, let id = self.selectedID,
                  let cell = self.cells.values.first(where: { $0.boundID == id }), let summary = cell.boundSummary else { return }
            self.onContextMenu?(summary, cell.widget, nil)
        }

        let scope = GObjectScope.of(widget)
        scope.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let cell = AlbumGridCell()
            cell.onPlay = { [weak self] id in self?.onPlay?(id) }
            ContextMenu.onSecondaryClick(cell.widget) { [weak self, weak cell] x, y in
                guard let self, let cell, let summary = cell.boundSummary else { return }
                self.onContextMenu?(summary, cell.widget, (x, y))
            }
            cell.onCoverShown = { [weak self] in
                self?.onFirstCover?()
                self?.onFirstCover = nil
            }
            cell.onRate = { [weak self] album, rating in self?.onRate?(album, rating) }
            self.cells[item] = cell
            gtk_list_item_set_child(crate_list_item(item), cell.widget)
        }
        scope.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let cell = self.cells[item] else { return }
            let position = Int(gtk_list_item_get_position(crate_list_item(item)))
            StartupTiming.mark("grid first bind")
            guard let id = Self.albumID(of: gtk_list_item_get_item(crate_list_item(item))),
                  let summary = self.summary(at: position), summary.id == id else { cell.clear(); return }
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

    /// Moves focus and selection a page of rows down (1) or up (-1). The rows on a page and the
    /// columns come from the cells' laid-out size.
    func movePage(_ direction: Int) -> Bool {
        revealHeld()
        // A laid-out cell (GTK also keeps cells bound off screen, 0×0).
        guard listing.count > 0, let child = cells.values.lazy.compactMap({ cell -> UnsafeMutablePointer<GtkWidget>? in
            guard cell.boundID != nil, let child = gtk_widget_get_parent(cell.widget),
                  gtk_widget_get_width(child) > 0, gtk_widget_get_height(child) > 0 else { return nil }
            return child
        }).first else { return false }
        let cellWidth = max(1, gtk_widget_get_width(child)), cellHeight = max(1, gtk_widget_get_height(child))
        let columns = max(1, Int(gtk_widget_get_width(gridView) / cellWidth))
        let rows = max(1, Int(gtk_widget_get_height(widget) / cellHeight))
        let selected = gtk_single_selection_get_selected(selection)
        let current = selected == UInt32(GTK_INVALID_LIST_POSITION) ? 0 : Int(selected)
        var target = current + direction * columns * rows
        if target >= listing.count { target = listing.count - 1 }
        if target < 0 { target = current % columns }
        crate_list_scroll_to_item(gridView, UInt32(target))
        crate_list_select_item(gridView, UInt32(target))
        if WidgetEvents.isObserved { WidgetEvents.say("grid-page \(target) rows=\(rows) columns=\(columns)") }
        // Focus follows once the target's cell is laid out (the next frame).
        let id = summary(at: target)?.id
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: .milliseconds(50))
            guard let self, let id, let cell = self.cells.values.first(where: { $0.boundID == id }),
                  let child = gtk_widget_get_parent(cell.widget) else { return }
            gtk_widget_grab_focus(child)
        }
        return true
    }

    /// Selects an album when it is among the pages held (without telling `onSelect`).
    func select(albumID: Int64) {
        guard let position = cachedPosition(of: albumID) else { return }
        if let from = heldFrom, position >= from { revealHeld() }
        isUpdating = true
        defer { isUpdating = false }
        gtk_single_selection_set_selected(selection, UInt32(position))
    }

    /// The laid-out size of every cell on screen showing an album, in grid order (rows align when the
    /// heights are all the same).
    func boundCellSizes() -> [(width: Int32, height: Int32)] {
        cells.values.compactMap { cell -> (Int, Int32, Int32)? in
            guard let id = cell.boundID, let child = gtk_widget_get_parent(cell.widget), gtk_widget_get_mapped(child) != 0,
                  let position = cachedPosition(of: id) else { return nil }
            return (position, gtk_widget_get_width(child), gtk_widget_get_height(child))
        }.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
    }

    /// The cell showing the grid's first album, when it is on screen (tests click it).
    func firstCellWidget() -> UnsafeMutablePointer<GtkWidget>? {
        guard let id = pages[0]?.first?.id else { return nil }
        return cells.values.first { $0.boundID == id && gtk_widget_get_mapped($0.widget) != 0 }?.widget
    }

    /// Albums in the grid now.
    var count: Int { listing.count }

    /// A grid view builds and binds `max-columns` × 30 cells for a long model, whatever the
    /// window's height: 360 cells, each measured and styled, before the first frame with covers.
    /// So the first show gives GTK only the albums a window of this size can show (a generous
    /// guess: narrow cells, a row to spare), and the rest follows in `revealHeld()`. The
    /// columns allowed are those the widest monitor can hold, which bounds the cells built off
    /// screen for the rest of the session too.
    func holdBack(forWindowWidth width: Int32, height: Int32) {
        let columns = Int(max(1, min(Self.maximumColumns, width / Self.narrowestCell)))
        let rows = Int(max(1, height / Self.shortestCell)) + 1
        firstShowLimit = columns * rows
        if let widest = Self.widestMonitor() { fitColumns(toWidth: widest) }
    }

    private static func widestMonitor() -> Int32? {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else { return nil }
        var widest: Int32 = 0
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let monitor = g_list_model_get_item(monitors, index) else { continue }
            var geometry = GdkRectangle()
            gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
            widest = max(widest, geometry.width)
            g_object_unref(monitor)
        }
        return widest > 0 ? widest : nil
    }

    /// The most columns any window gets.
    static let maximumColumns: Int32 = 12
    /// Narrower and shorter than any cell really is (artwork 140 px plus margins and labels), so
    /// the guesses above err on the side of too many.
    private static let narrowestCell: Int32 = 140
    private static let shortestCell: Int32 = 180

    /// Lets the grid have as many columns as `width` can hold (never fewer than a row of cells
    /// that narrow fits): fewer columns allowed means fewer cells built off screen.
    func fitColumns(toWidth width: Int32) {
        let columns = UInt32(max(1, min(Self.maximumColumns, width / Self.narrowestCell)))
        if gtk_grid_view_get_max_columns(crate_grid_view(gridView)) != columns {
            gtk_grid_view_set_max_columns(crate_grid_view(gridView), columns)
        }
    }

    /// A listing shown from now on is shown whole (the start-up is over).
    func stopHoldingBack() {
        firstShowLimit = nil
    }

    /// Gives GTK the albums the first show held back (nothing when none were).
    func revealHeld() {
        guard let from = heldFrom else { return }
        heldFrom = nil
        guard listing.count > from else { return }
        isUpdating = true
        defer { isUpdating = false }
        crate_lazy_model_splice(crate_list_model(UnsafeMutableRawPointer(model)), UInt32(from), 0, UInt32(listing.count - from))
        StartupTiming.mark("grid filled (\(listing.count) albums)")
        WidgetEvents.say("grid-filled \(from)+\(listing.count - from)")
    }

    /// Shows a listing (its first page already read), keeping the selection when the album is
    /// still there. The same list again (a refresh after a change) re-reads the pages held and
    /// tells GTK only what changed, so the scroll position stays.
    func show(_ next: AlbumListing, firstPage: [AlbumSummary], selected: Int64?) {
        // Anything after the first show starts from GTK's model holding the whole listing.
        revealHeld()
        isUpdating = true
        defer { isUpdating = false }
        let oldCount = listing.count
        let old = pages
        let sameList = next.isSameList(as: listing)
        listing = next
        pages = [0: firstPage]
        pageUse = [0: useClock]
        var held = false
        // (A first show is a new list even when the empty one before it had the same sort.)
        if !sameList || oldCount == 0 {
            var shown = next.count
            if let limit = firstShowLimit, next.count > 0 {
                firstShowLimit = nil
                let selectedPosition = selected.flatMap(cachedPosition(of:)) ?? 0
                if next.count > limit, selectedPosition < limit {
                    shown = limit
                    heldFrom = limit
                    held = true
                }
            }
            crate_lazy_model_splice(crate_list_model(UnsafeMutableRawPointer(model)), 0, UInt32(oldCount), UInt32(shown))
        } else {
            var firstDifference: Int?
            var changed: [Int] = []
            for (page, before) in old.sorted(by: { $0.key < $1.key }) {
                let base = page * Self.pageSize
                if let firstDifference, base >= firstDifference { break }
                let after = page == 0 ? firstPage : read(page: page)
                pages[page] = after
                pageUse[page] = useClock
                for index in 0..<max(before.count, after.count) {
                    guard index < before.count, index < after.count, before[index].id == after[index].id else {
                        firstDifference = base + index
                        break
                    }
                    if before[index] != after[index] { changed.append(base + index) }
                }
            }
            if firstDifference == nil, oldCount != next.count {
                // Not among the pages held: from the first page not held (or the old end).
                var page = 0
                while old[page] != nil { page += 1 }
                firstDifference = min(page * Self.pageSize, oldCount, next.count)
            }
            let gridModel = crate_list_model(UnsafeMutableRawPointer(model))
            if let start = firstDifference {
                for page in pages.keys where page * Self.pageSize > start { pages[page] = nil; pageUse[page] = nil }
                let start = min(start, oldCount, next.count)
                crate_lazy_model_splice(gridModel, UInt32(start), UInt32(oldCount - start), UInt32(next.count - start))
            }
            // Same album, new details (artwork arrived): only that cell is bound again.
            for position in changed where firstDifference.map({ position < $0 }) ?? true {
                crate_lazy_model_splice(gridModel, UInt32(position), 1, 1)
            }
        }
        let position = selected.flatMap(cachedPosition(of:)).map { UInt32($0) } ?? UInt32(GTK_INVALID_LIST_POSITION)
        gtk_single_selection_set_selected(selection, position)
        pruneItems()
        if held { onHeld?() }
    }

    /// Drops the items of albums no longer in a page held (GTK keeps its own references to what
    /// it shows).
    private func pruneItems() {
        let held = Set(pages.values.flatMap { $0.map(\.id) })
        for (id, item) in items where !held.contains(id) {
            g_object_unref(item)
            items[id] = nil
        }
    }

    /// Ids from `position` on, for what plays after an album (`limit` of them).
    func albumIDs(from position: Int, limit: Int) -> [Int64] {
        (position..<min(listing.count, position + limit)).compactMap { summary(at: $0)?.id }
    }

    /// Where an album is among the pages held (the visible ones, and those seen lately).
    func cachedPosition(of id: Int64) -> Int? {
        for (page, albums) in pages {
            if let index = albums.firstIndex(where: { $0.id == id }) { return page * Self.pageSize + index }
        }
        return nil
    }

    /// The album at a grid position, reading its page when it is not held.
    func summary(at position: Int) -> AlbumSummary? {
        guard position >= 0, position < listing.count else { return nil }
        let page = position / Self.pageSize
        useClock += 1
        pageUse[page] = useClock
        if pages[page] == nil {
            pages[page] = read(page: page)
            trimPages()
        }
        let albums = pages[page] ?? []
        let index = position % Self.pageSize
        return index < albums.count ? albums[index] : nil
    }

    private func read(page: Int) -> [AlbumSummary] {
        fetchPage?(listing, page * Self.pageSize, Self.pageSize) ?? []
    }

    private func trimPages() {
        guard pages.count > Self.maximumPages else { return }
        let oldest = pageUse.filter { pages[$0.key] != nil && $0.key != 0 }.sorted { $0.value < $1.value }
        for (page, _) in oldest.prefix(pages.count - Self.maximumPages) {
            pages[page] = nil
            pageUse[page] = nil
        }
        pruneItems()
    }

    /// The model's item at `position`: the album's GtkStringObject holding its id ("" when the
    /// album went away since the count was taken).
    private func item(at position: Int) -> UnsafeMutableRawPointer? {
        guard let id = summary(at: position)?.id else { return gtk_string_object_new("").map { UnsafeMutableRawPointer($0) } }
        if let item = items[id] { return g_object_ref(item) }
        guard let item = gtk_string_object_new(String(id)).map({ UnsafeMutableRawPointer($0) }) else { return nil }
        items[id] = item
        return g_object_ref(item)
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
