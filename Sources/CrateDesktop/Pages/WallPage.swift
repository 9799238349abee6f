import CGtk
import CrateCore
import Foundation

/// The Crate Wall page: the dial, a refresh button, which sources were unavailable, and the
/// tiles in a flow box that asks for more when scrolled to its end.
@MainActor
final class WallPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let flow: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let dial = WallDialPopover()
    private let refreshButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let dialLabel: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let empty = EmptyStateView(icon: "view-grid-symbolic", title: L10n.tr("Your Crate Wall is on its way"),
                                       detail: L10n.tr("Crate is gathering albums from your listening, recommendations, charts, new releases and a wild card."))
    /// One view per place, in flow-box order; a new list changes only the places that differ.
    private var tiles: [WallTileView] = []
    /// The tiles' data, in flow-box order.
    private var shownTiles: [WallTile] = []
    /// A tile was clicked (or activated with the keyboard): its album pane opens.
    var onOpen: ((WallTile) -> Void)?
    /// The tiles of a new wall are in the page (start-up timing; the count).
    var onTilesShown: ((Int) -> Void)?
    /// At start-up, how many tiles the first wall shows at first (see `holdBack`).
    private var firstShowLimit: Int?
    /// The whole wall, while the first show holds tiles back.
    private var heldState: WallState?
    /// The first show held tiles back: the window calls `revealHeld()` once its first page is
    /// on screen.
    var onHeld: (() -> Void)?
    private var tokens: [ObservationToken] = []
    private weak var store: WallStore?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["wall-page"])
        let bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar, 12) }
        gtk_widget_set_margin_top(bar, 8)
        gtk_widget_set_margin_bottom(bar, 4)
        dialLabel = Gtk.label("", classes: ["heading"])
        gtk_label_set_ellipsize(crate_label(dialLabel), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(dialLabel, 1)
        spinner = gtk_spinner_new()!
        refreshButton = Gtk.iconButton("view-refresh-symbolic", label: L10n.tr("Build a new wall"))
        Gtk.setTooltip(refreshButton, L10n.tr("New wall"))
        Gtk.append(bar, dialLabel)
        Gtk.append(bar, spinner)
        Gtk.append(bar, refreshButton)
        Gtk.append(bar, dial.widget)
        statusLabel = Gtk.label("", classes: ["dim-label", "caption"])
        gtk_label_set_wrap(crate_label(statusLabel), 1)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(statusLabel, 12) }
        gtk_widget_set_visible(statusLabel, 0)

        flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(OpaquePointer(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(OpaquePointer(flow), 1)
        gtk_flow_box_set_min_children_per_line(OpaquePointer(flow), 2)
        gtk_flow_box_set_max_children_per_line(OpaquePointer(flow), 12)
        gtk_flow_box_set_column_spacing(OpaquePointer(flow), 8)
        gtk_flow_box_set_row_spacing(OpaquePointer(flow), 12)
        gtk_widget_set_valign(flow, GTK_ALIGN_START)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] { margin(flow, 12) }
        scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), flow)
        Gtk.setAccessibleLabel(scroller, L10n.tr("Albums on the Crate Wall"))
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)

        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), scroller, "tiles")
        gtk_stack_add_named(crate_stack(stack), empty.widget, "empty")
        gtk_widget_set_vexpand(stack, 1)
        Gtk.append(widget, bar)
        Gtk.append(widget, statusLabel)
        Gtk.append(widget, stack)
    }

    /// Binds the page to the wall's store.
    func attach(_ store: WallStore) {
        self.store = store
        let scope = GObjectScope.of(widget)
        scope.connect(refreshButton, "clicked") { [weak store] in
            guard let store else { return }
            Task { await store.refresh() }
        }
        scope.connect(scroller, "edge-reached") { [weak store] (position: UnsafeMutableRawPointer?) in
            // GTK_POS_BOTTOM: infinite scroll.
            guard let store, UInt32(UInt(bitPattern: position)) == GTK_POS_BOTTOM.rawValue else { return }
            Task { await store.more() }
        }
        scope.connect(flow, "child-activated") { [weak self] (child: UnsafeMutableRawPointer?) in
            guard let self, let child else { return }
            let index = Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
            guard self.shownTiles.indices.contains(index) else { return }
            self.onOpen?(self.shownTiles[index])
        }
        dial.onChoose = { [weak store] position in
            guard let store else { return }
            Task { await store.setDial(position) }
        }
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
    }

    /// A flow box measures every tile, shown or not: 60 tiles of a dozen widgets each in the
    /// first frame. So the first wall shows the tiles a window of this size can show (a generous
    /// guess: narrow tiles; rows as tall as the art and its three lines, with the header bar, the
    /// genre bar and the dial's line above them standing in for a partly shown last row) and the
    /// rest in `revealHeld()`.
    func holdBack(forWindowWidth width: Int32, height: Int32) {
        let columns = Int(max(2, min(12, width / (WallTileView.artworkSize + 8))))
        let rows = Int(max(1, height / (WallTileView.artworkSize + 64)))
        firstShowLimit = columns * rows
    }

    /// A wall shown from now on is shown whole (the start-up is over).
    func stopHoldingBack() {
        firstShowLimit = nil
    }

    /// Shows the tiles the first show held back (nothing when none were).
    func revealHeld() {
        guard let held = heldState else { return }
        render(held)
    }

    private func render(_ whole: WallState) {
        var state = whole
        heldState = nil
        var held = false
        if let limit = firstShowLimit, !state.tiles.isEmpty {
            firstShowLimit = nil
            if state.tiles.count > limit {
                state.tiles = Array(state.tiles.prefix(limit))
                heldState = whole
                held = true
            }
        }
        defer { if held { onHeld?() } }
        let entry = state.dialEntries.first { $0.position == state.dial }
        Gtk.setText(dialLabel, entry.map { L10n.tr("%@ — %@", $0.displayTitle, $0.displaySentence) } ?? L10n.tr("Crate Wall"))
        dial.show(entries: state.dialEntries, current: state.dial)
        let busy = state.phase == .refreshing || state.phase == .loading || state.isLoadingMore
        if busy { Gtk.spin(spinner, true) } else { Gtk.spin(spinner, false) }
        gtk_widget_set_sensitive(refreshButton, state.phase == .refreshing ? 0 : 1)

        var notes: [String] = []
        if let message = state.message { notes.append(message) }
        if !state.unavailable.isEmpty {
            // Signals that failed for the same reason are named together (one service down).
            var reasons: [String] = []
            var signals: [String: [String]] = [:]
            for missing in state.unavailable {
                if signals[missing.reason] == nil { reasons.append(missing.reason) }
                signals[missing.reason, default: []].append(missing.signal.title)
            }
            notes.append(L10n.tr("Without %@", reasons.map { "\(Self.joined(signals[$0] ?? [])) (\($0))" }.joined(separator: "; ")))
        }
        Gtk.setText(statusLabel, notes.joined(separator: " "))
        gtk_widget_set_visible(statusLabel, notes.isEmpty ? 0 : 1)

        let started = ContinuousClock.now
        let plan = TilePlan.between(shownTiles, state.tiles, key: \.item.releaseGroupID)
        if !plan.isUnchanged {
            tiles = TileFlow.apply(plan, to: tiles, in: flow, widget: \.widget, make: { self.makeTile(state.tiles[$0]) },
                                   show: { view, index in view.show(state.tiles[index]) })
            if plan.counts.kept + plan.counts.updated == 0, !shownTiles.isEmpty {
                // A whole new wall (a refresh, the dial) starts at the top.
                gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(crate_scrolled_window(scroller)), 0)
            }
            shownTiles = state.tiles
            if !state.tiles.isEmpty {
                StartupTiming.mark("wall shown (\(state.tiles.count) tiles)")
                onTilesShown?(state.tiles.count)
            }
            // Covers arriving one by one are updates only; the tests follow the rest.
            let counts = plan.counts
            if counts.rebound + counts.inserted + counts.removed > 0 {
                TileFlow.reportTiming("wall", plan: plan, started: started, widget: flow)
                if TestEvents.isEnabled { TestEvents.note("wall-update \(plan.summary)") }
            }
        }
        for tile in tiles { tile.show(rating: state.ratings[tile.releaseGroupID]) }
        if state.tiles.isEmpty, state.phase == .loaded, state.message != nil {
            empty.update(title: L10n.tr("No wall yet"), detail: state.message ?? "")
        }
        gtk_stack_set_visible_child_name(crate_stack(stack), state.tiles.isEmpty ? "empty" : "tiles")
        if TestEvents.isEnabled { reportForTests(state) }
    }

    /// `wall dial=… phase=… tiles=N unavailable=…` and where the dial and the first tile are.
    private func reportForTests(_ state: WallState) {
        let phase: String
        switch state.phase {
        case .loading: phase = "loading"
        case .loaded: phase = "loaded"
        case .refreshing: phase = "refreshing"
        }
        let missing = state.unavailable.map(\.signal.rawValue).joined(separator: ",")
        TestEvents.note("wall dial=\(state.dial.rawValue) phase=\(phase) tiles=\(state.tiles.count) unavailable=\(missing.isEmpty ? "none" : missing)")
        if !state.tiles.isEmpty {
            TestEvents.note("wall-first \(state.tiles[0].item.releaseGroupID.rawValue)")
            TestEvents.note("wall-ids " + state.tiles.prefix(4).map(\.item.releaseGroupID.rawValue).joined(separator: " "))
        }
        reportPointsForTests()
    }

    /// Where the dial, the refresh button and the first tile are (again after the layout changed).
    func reportPointsForTests() {
        guard TestEvents.isEnabled, let root = gtk_widget_get_root(widget) else { return }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        TestEvents.reportPoint("wall-dial", of: dial.widget, in: window)
        TestEvents.reportPoint("wall-refresh", of: refreshButton, in: window)
        if let first = tiles.first {
            TestEvents.reportPoint("wall-tile", of: first.widget, y: 40, in: window)
            TestEvents.reportPoint("wall-tile-dislike", of: first.dislikeButton, in: window)
        }
        for (place, tile) in tiles.prefix(4).enumerated() { TestEvents.reportPoint("wall-tile-\(place)", of: tile.widget, y: 40, in: window) }
    }

    /// "A", "A and B", "A, B and C".
    static func joined(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return L10n.tr("%@ and %@", names.dropLast().joined(separator: ", "), last)
    }

    private func makeTile(_ tile: WallTile) -> WallTileView {
        let view = WallTileView(tile: tile)
        view.onRate = { [weak store] album, rating in
            guard let store else { return }
            Task {
                switch rating {
                case .favourite: await store.favourite(album)
                case .dislike: await store.dislike(album)
                case nil: await store.unrate(album)
                }
            }
        }
        return view
    }
}
