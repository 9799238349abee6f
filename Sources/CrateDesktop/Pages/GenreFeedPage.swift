import CGtk
import CrateCore
import Foundation

/// A genre's feed below the genre bar: what it is and which signals were missing, then the
/// albums as the wall's tiles (cover, title, artist, signal, heart and ✕).
@MainActor
final class GenreFeedPage {
    private let page = TilePage(cssClass: "genre-feed-page", scrollerLabel: L10n.tr("Albums of this genre"),
                                empty: EmptyStateView(icon: "view-grid-symbolic", title: L10n.tr("Gathering albums"),
                                                      detail: L10n.tr("Crate is looking for albums of this genre in your listening, recommendations, charts and new releases.")))
    var widget: UnsafeMutablePointer<GtkWidget> { page.widget }
    private var tiles: [WallTileView] { page.tiles }
    /// The tiles' data, in flow-box order.
    private var shownTiles: [WallTile] = []
    /// What put each shown tile there (a tile whose signal changed shows the new one).
    private var shownSignals: [String?] = []
    private var ratings: [MBID: AlbumRating] = [:]
    /// A tile was clicked or activated: its album pane opens.
    var onOpen: ((WallTile) -> Void)?
    /// A tile's heart or ✕.
    var onRate: ((RatedAlbum, AlbumRating?) -> Void)?
    /// The refresh button: build the feed again (a feed opened again comes from the session).
    var onRefresh: (() -> Void)?

    init() {
        let refresh = Gtk.iconButton("view-refresh-symbolic", label: L10n.tr("Build this feed again"))
        Gtk.setTooltip(refresh, L10n.tr("Refresh"))
        gtk_widget_add_css_class(refresh, "flat")
        Gtk.append(page.bar, refresh)
        GObjectScope.of(widget).connect(refresh, "clicked") { [weak self] in self?.onRefresh?() }
        page.onActivate = { [weak self] index in
            guard let self, self.shownTiles.indices.contains(index) else { return }
            self.onOpen?(self.shownTiles[index])
        }
    }

    /// Shows the feed; `ratings` are the hearts and ✕s (an album ✕'d here leaves the feed).
    func show(_ state: GenreFeedState, ratings: [MBID: AlbumRating], dial: String?) {
        self.ratings = ratings
        let title = state.scope?.displayTitle ?? ""
        Gtk.setText(page.titleLabel, dial.map { "\(title) — \($0)" } ?? title)
        Gtk.spin(page.spinner, state.phase == .loading)
        let without = TilePage.withoutNote(state.unavailable.map { ($0.signal.title, $0.reason) }, reason: Self.clause, ending: ".")
        page.setNotes([state.message, without].compactMap { $0 })

        let wanted = state.tiles.filter { ratings[$0.item.releaseGroupID] != .dislike }
        let signals = wanted.map { state.signals[$0.item.releaseGroupID]?.title }
        struct Place: Equatable { var tile: WallTile; var signal: String? }
        let started = ContinuousClock.now
        let plan = TilePlan.between(zip(shownTiles, shownSignals).map { Place(tile: $0, signal: $1) }, zip(wanted, signals).map { Place(tile: $0, signal: $1) }, key: \.tile.item.releaseGroupID)
        if page.apply(plan, make: { self.makeTile(wanted[$0], signal: signals[$0]) }, show: { view, index in view.show(wanted[index], signalTitle: signals[index]) }) {
            shownTiles = wanted
            shownSignals = signals
            let counts = plan.counts
            if counts.rebound + counts.inserted + counts.removed > 0 {
                TileFlow.reportTiming("genre feed", plan: plan, started: started, widget: page.flow)
                if WidgetEvents.isObserved { WidgetEvents.say("genre-update \(plan.summary)") }
            }
        }
        for tile in tiles { tile.show(rating: ratings[tile.releaseGroupID]) }
        if wanted.isEmpty {
            if state.phase == .loading {
                page.empty.update(title: L10n.tr("Gathering albums"), detail: L10n.tr("Crate is looking for %@ albums in your listening, recommendations, charts and new releases.", title))
            } else {
                page.empty.update(title: L10n.tr("No albums here yet"), detail: state.message ?? L10n.tr("Nothing found for %@.", title))
            }
        }
        page.showEmpty(wanted.isEmpty)
    }

    /// Where the first tile is, for the UI tests.
    func reportPoints(in window: UnsafeMutablePointer<GtkWidget>) {
        if let first = tiles.first {
            WidgetEvents.place("genre-tile", of: first.widget, y: 40, in: window)
            WidgetEvents.say("genre-first \(first.releaseGroupID.rawValue)")
        }
    }

    /// A reason as a clause inside parentheses: "it had no albums to show", not "It had no albums to show.".
    static func clause(_ reason: String) -> String {
        var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasSuffix(".") { text.removeLast() }
        let first = text.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        if ["It", "The", "No", "Nothing", "There", "This", "Your"].contains(first) { text = first.lowercased() + text.dropFirst(first.count) }
        return text
    }

    private func makeTile(_ tile: WallTile, signal: String?) -> WallTileView {
        let view = WallTileView(tile: tile, signalTitle: signal)
        view.onRate = { [weak self] album, rating in self?.onRate?(album, rating) }
        return view
    }
}
