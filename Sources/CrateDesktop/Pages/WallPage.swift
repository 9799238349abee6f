import CGtk
import CrateCore
import Foundation

/// The Crate Wall page: the dial, a refresh button, which sources were unavailable, and the
/// tiles in a flow box that asks for more when scrolled to its end.
@MainActor
final class WallPage {
    private let page = TilePage(cssClass: "wall-page", scrollerLabel: L10n.tr("Albums on the Crate Wall"),
                                empty: EmptyStateView(icon: "view-grid-symbolic", title: L10n.tr("Your Crate Wall is on its way"),
                                                      detail: L10n.tr("Crate is gathering albums from your listening, recommendations, charts, new releases and a wild card.")))
    var widget: UnsafeMutablePointer<GtkWidget> { page.widget }
    private var flow: UnsafeMutablePointer<GtkWidget> { page.flow }
    private var scroller: UnsafeMutablePointer<GtkWidget> { page.scroller }
    private var tiles: [WallTileView] { page.tiles }
    private let dial = WallDialPopover()
    private let refreshButton: UnsafeMutablePointer<GtkWidget>
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
        refreshButton = Gtk.iconButton("view-refresh-symbolic", label: L10n.tr("Build a new wall"))
        Gtk.setTooltip(refreshButton, L10n.tr("New wall"))
        Gtk.append(page.bar, refreshButton)
        Gtk.append(page.bar, dial.widget)
        page.onActivate = { [weak self] index in
            guard let self, self.shownTiles.indices.contains(index) else { return }
            self.onOpen?(self.shownTiles[index])
        }
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
        Gtk.setText(page.titleLabel, entry.map { L10n.tr("%@ — %@", $0.displayTitle, $0.displaySentence) } ?? L10n.tr("Crate Wall"))
        dial.show(entries: state.dialEntries, current: state.dial)
        let busy = state.phase == .refreshing || state.phase == .loading || state.isLoadingMore
        Gtk.spin(page.spinner, busy)
        gtk_widget_set_sensitive(refreshButton, state.phase == .refreshing ? 0 : 1)

        let without = TilePage.withoutNote(state.unavailable.map { ($0.signal.title, $0.reason) })
        page.setNotes([state.message, without].compactMap { $0 })

        let started = ContinuousClock.now
        let plan = TilePlan.between(shownTiles, state.tiles, key: \.item.releaseGroupID)
        if page.apply(plan, make: { self.makeTile(state.tiles[$0]) }, show: { view, index in view.show(state.tiles[index]) }) {
            shownTiles = state.tiles
            if !state.tiles.isEmpty {
                StartupTiming.mark("wall shown (\(state.tiles.count) tiles)")
                onTilesShown?(state.tiles.count)
            }
            // Covers arriving one by one are updates only; the tests follow the rest.
            let counts = plan.counts
            if counts.rebound + counts.inserted + counts.removed > 0 {
                TileFlow.reportTiming("wall", plan: plan, started: started, widget: flow)
                if WidgetEvents.isObserved { WidgetEvents.say("wall-update \(plan.summary)") }
            }
        }
        for tile in tiles { tile.show(rating: state.ratings[tile.releaseGroupID]) }
        if state.tiles.isEmpty, state.phase == .loaded, state.message != nil {
            page.empty.update(title: L10n.tr("No wall yet"), detail: state.message ?? "")
        }
        page.showEmpty(state.tiles.isEmpty)
        if WidgetEvents.isObserved { reportForTests(state) }
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
        WidgetEvents.say("wall dial=\(state.dial.rawValue) phase=\(phase) tiles=\(state.tiles.count) unavailable=\(missing.isEmpty ? "none" : missing)")
        if !state.tiles.isEmpty {
            WidgetEvents.say("wall-first \(state.tiles[0].item.releaseGroupID.rawValue)")
            WidgetEvents.say("wall-ids " + state.tiles.prefix(4).map(\.item.releaseGroupID.rawValue).joined(separator: " "))
        }
        reportPointsForTests()
    }

    /// Where the dial, the refresh button and the first tile are (again after the layout changed).
    func reportPointsForTests() {
        guard WidgetEvents.isObserved, let root = gtk_widget_get_root(widget) else { return }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        WidgetEvents.place("wall-dial", of: dial.widget, in: window)
        WidgetEvents.place("wall-refresh", of: refreshButton, in: window)
        if let first = tiles.first {
            WidgetEvents.place("wall-tile", of: first.widget, y: 40, in: window)
            WidgetEvents.place("wall-tile-dislike", of: first.dislikeButton, in: window)
        }
        for (place, tile) in tiles.prefix(4).enumerated() { WidgetEvents.place("wall-tile-\(place)", of: tile.widget, y: 40, in: window) }
    }

    /// "A", "A and B", "A, B and C".
    static func joined(_ names: [String]) -> String { TilePage.joined(names) }

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
