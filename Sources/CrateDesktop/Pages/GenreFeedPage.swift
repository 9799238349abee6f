import CGtk
import CrateCore
import Foundation

/// A genre's feed below the genre bar: what it is and which signals were missing, then the
/// albums as the wall's tiles (cover, title, artist, signal, heart and ✕).
@MainActor
final class GenreFeedPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let flow: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let empty = EmptyStateView(icon: "view-grid-symbolic", title: L10n.tr("Gathering albums"),
                                       detail: L10n.tr("Crate is looking for albums of this genre in your listening, recommendations, charts and new releases."))
    /// One view per place, in flow-box order; a new list changes only the places that differ.
    private var tiles: [WallTileView] = []
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
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["genre-feed-page"])
        let bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar, 12) }
        gtk_widget_set_margin_top(bar, 4)
        gtk_widget_set_margin_bottom(bar, 4)
        titleLabel = Gtk.label("", classes: ["heading"])
        gtk_label_set_ellipsize(crate_label(titleLabel), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(titleLabel, 1)
        spinner = gtk_spinner_new()!
        let refresh = Gtk.iconButton("view-refresh-symbolic", label: L10n.tr("Build this feed again"))
        Gtk.setTooltip(refresh, L10n.tr("Refresh"))
        gtk_widget_add_css_class(refresh, "flat")
        Gtk.append(bar, titleLabel)
        Gtk.append(bar, spinner)
        Gtk.append(bar, refresh)
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
        Gtk.setAccessibleLabel(scroller, L10n.tr("Albums of this genre"))
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)

        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), scroller, "tiles")
        gtk_stack_add_named(crate_stack(stack), empty.widget, "empty")
        gtk_widget_set_vexpand(stack, 1)
        Gtk.append(widget, bar)
        Gtk.append(widget, statusLabel)
        Gtk.append(widget, stack)

        GObjectScope.of(widget).connect(refresh, "clicked") { [weak self] in self?.onRefresh?() }
        GObjectScope.of(widget).connect(flow, "child-activated") { [weak self] (child: UnsafeMutableRawPointer?) in
            guard let self, let child else { return }
            let index = Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
            guard self.shownTiles.indices.contains(index) else { return }
            self.onOpen?(self.shownTiles[index])
        }
    }

    /// Shows the feed; `ratings` are the hearts and ✕s (an album ✕'d here leaves the feed).
    func show(_ state: GenreFeedState, ratings: [MBID: AlbumRating], dial: String?) {
        self.ratings = ratings
        let title = state.scope?.displayTitle ?? ""
        Gtk.setText(titleLabel, dial.map { "\(title) — \($0)" } ?? title)
        if state.phase == .loading { Gtk.spin(spinner, true) } else { Gtk.spin(spinner, false) }

        var notes: [String] = []
        if let message = state.message { notes.append(message) }
        if !state.unavailable.isEmpty {
            // Signals missing for the same reason are named together (one service down).
            var reasons: [String] = []
            var signals: [String: [String]] = [:]
            for missing in state.unavailable {
                if signals[missing.reason] == nil { reasons.append(missing.reason) }
                signals[missing.reason, default: []].append(missing.signal.title)
            }
            notes.append(L10n.tr("Without %@.", reasons.map { "\(WallPage.joined(signals[$0] ?? [])) (\(Self.clause($0)))" }.joined(separator: "; ")))
        }
        Gtk.setText(statusLabel, notes.joined(separator: " "))
        gtk_widget_set_visible(statusLabel, notes.isEmpty ? 0 : 1)

        let wanted = state.tiles.filter { ratings[$0.item.releaseGroupID] != .dislike }
        let signals = wanted.map { state.signals[$0.item.releaseGroupID]?.title }
        struct Place: Equatable { var tile: WallTile; var signal: String? }
        let started = ContinuousClock.now
        let plan = TilePlan.between(zip(shownTiles, shownSignals).map { Place(tile: $0, signal: $1) }, zip(wanted, signals).map { Place(tile: $0, signal: $1) }, key: \.tile.item.releaseGroupID)
        if !plan.isUnchanged {
            tiles = TileFlow.apply(plan, to: tiles, in: flow, widget: \.widget, make: { self.makeTile(wanted[$0], signal: signals[$0]) },
                                   show: { view, index in view.show(wanted[index], signalTitle: signals[index]) })
            if plan.counts.kept + plan.counts.updated == 0, !shownTiles.isEmpty {
                // Another genre or subcategory: its feed starts at the top.
                gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(crate_scrolled_window(scroller)), 0)
            }
            shownTiles = wanted
            shownSignals = signals
            let counts = plan.counts
            if counts.rebound + counts.inserted + counts.removed > 0 {
                TileFlow.reportTiming("genre feed", plan: plan, started: started, widget: flow)
                if TestEvents.isEnabled { TestEvents.note("genre-update \(plan.summary)") }
            }
        }
        for tile in tiles { tile.show(rating: ratings[tile.releaseGroupID]) }
        if wanted.isEmpty {
            if state.phase == .loading {
                empty.update(title: L10n.tr("Gathering albums"), detail: L10n.tr("Crate is looking for %@ albums in your listening, recommendations, charts and new releases.", title))
            } else {
                empty.update(title: L10n.tr("No albums here yet"), detail: state.message ?? L10n.tr("Nothing found for %@.", title))
            }
        }
        gtk_stack_set_visible_child_name(crate_stack(stack), wanted.isEmpty ? "empty" : "tiles")
    }

    /// Where the first tile is, for the UI tests.
    func reportPoints(in window: UnsafeMutablePointer<GtkWidget>) {
        if let first = tiles.first {
            TestEvents.reportPoint("genre-tile", of: first.widget, y: 40, in: window)
            TestEvents.note("genre-first \(first.releaseGroupID.rawValue)")
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
