import CGtk
import CrateCore

/// The page of album tiles the Wall and a genre's feed share: a heading row (a title, a
/// spinner, the page's own buttons), a line of notes ("Without Charts (it did not answer)"), and
/// the tiles in a flow box that changes only the places a new list changes (TilePlan), with an
/// empty page in their place when there are none. The artist page's sections use `makeFlow()`.
@MainActor
final class TilePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The heading row: the page appends its own buttons after the spinner.
    let bar: UnsafeMutablePointer<GtkWidget>
    let titleLabel: UnsafeMutablePointer<GtkWidget>
    let spinner: UnsafeMutablePointer<GtkWidget>
    let flow: UnsafeMutablePointer<GtkWidget>
    let scroller: UnsafeMutablePointer<GtkWidget>
    let empty: EmptyStateView
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    /// One view per place, in flow-box order.
    private(set) var tiles: [WallTileView] = []
    /// A tile was clicked or activated: its place.
    var onActivate: ((Int) -> Void)?

    init(cssClass: String, scrollerLabel: String, empty: EmptyStateView) {
        self.empty = empty
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: [cssClass])
        bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar, 12) }
        gtk_widget_set_margin_top(bar, 4)
        gtk_widget_set_margin_bottom(bar, 4)
        titleLabel = Gtk.label("", classes: ["heading"])
        gtk_label_set_ellipsize(crate_label(titleLabel), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(titleLabel, 1)
        spinner = gtk_spinner_new()!
        Gtk.append(bar, titleLabel)
        Gtk.append(bar, spinner)
        statusLabel = Gtk.label("", classes: ["dim-label", "caption"])
        gtk_label_set_wrap(crate_label(statusLabel), 1)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(statusLabel, 12) }
        gtk_widget_set_visible(statusLabel, 0)
        flow = Self.makeFlow()
        gtk_widget_set_valign(flow, GTK_ALIGN_START)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] { margin(flow, 12) }
        scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), flow)
        Gtk.setAccessibleLabel(scroller, scrollerLabel)
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)
        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), scroller, "tiles")
        gtk_stack_add_named(crate_stack(stack), empty.widget, "empty")
        gtk_widget_set_vexpand(stack, 1)
        Gtk.append(widget, bar)
        Gtk.append(widget, statusLabel)
        Gtk.append(widget, stack)
        GObjectScope.of(widget).connect(flow, "child-activated") { [weak self] (child: UnsafeMutableRawPointer?) in
            guard let self, let child else { return }
            let index = Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
            guard self.tiles.indices.contains(index) else { return }
            self.onActivate?(index)
        }
    }

    /// A flow box of tiles as every tile page lays them out: same-size places, 2 to 12 a row.
    static func makeFlow() -> UnsafeMutablePointer<GtkWidget> {
        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(OpaquePointer(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(OpaquePointer(flow), 1)
        gtk_flow_box_set_min_children_per_line(OpaquePointer(flow), 2)
        gtk_flow_box_set_max_children_per_line(OpaquePointer(flow), 12)
        gtk_flow_box_set_column_spacing(OpaquePointer(flow), 8)
        gtk_flow_box_set_row_spacing(OpaquePointer(flow), 12)
        return flow
    }

    /// The line under the heading: a message and the missing sources, or nothing.
    func setNotes(_ notes: [String]) {
        Gtk.setText(statusLabel, notes.joined(separator: " "))
        gtk_widget_set_visible(statusLabel, notes.isEmpty ? 0 : 1)
    }

    /// "Without Charts and New Releases (it did not answer); Wild Card (…)": sources missing for
    /// the same reason are named together (one service down). `reason` shapes each reason.
    static func withoutNote(_ missing: [(source: String, reason: String)], reason: (String) -> String = { $0 }, ending: String = "") -> String? {
        guard !missing.isEmpty else { return nil }
        var reasons: [String] = []
        var sources: [String: [String]] = [:]
        for (source, why) in missing {
            if sources[why] == nil { reasons.append(why) }
            sources[why, default: []].append(source)
        }
        return L10n.tr("Without %@", reasons.map { "\(joined(sources[$0] ?? [])) (\(reason($0)))" }.joined(separator: "; ")) + ending
    }

    /// "A", "A and B", "A, B and C".
    static func joined(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return L10n.tr("%@ and %@", names.dropLast().joined(separator: ", "), last)
    }

    /// Changes the tiles as `plan` says; a list that keeps none of the old tiles (another wall,
    /// another genre) starts at the top. Returns false when nothing changed.
    @discardableResult
    func apply(_ plan: TilePlan, make: (Int) -> WallTileView, show: (WallTileView, Int) -> Void) -> Bool {
        guard !plan.isUnchanged else { return false }
        let hadTiles = !tiles.isEmpty
        tiles = TileFlow.apply(plan, to: tiles, in: flow, widget: \.widget, make: make, show: show)
        if plan.counts.kept + plan.counts.updated == 0, hadTiles { scrollToTop() }
        return true
    }

    func scrollToTop() {
        gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(crate_scrolled_window(scroller)), 0)
    }

    /// The tiles, or the empty page when there are none.
    func showEmpty(_ isEmpty: Bool) {
        gtk_stack_set_visible_child_name(crate_stack(stack), isEmpty ? "empty" : "tiles")
    }
}
