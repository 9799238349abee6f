import CGtk
import CrateCore

/// Above the crate grid: "All 40 · Owned 3 · Wanted 2". One of three linked toggle buttons is
/// pressed; pressing another filters the grid.
@MainActor
final class CollectionFilterBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private var buttons: [(filter: CollectionFilter, button: UnsafeMutablePointer<GtkWidget>)] = []
    private var shown: CollectionFilter = .seen
    var onFilter: ((CollectionFilter) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked", "collection-filter"])
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_top(widget, 6)
        gtk_widget_set_margin_bottom(widget, 6)
        var first: UnsafeMutablePointer<GtkWidget>?
        for filter in CollectionFilter.allCases {
            let button = gtk_toggle_button_new()!
            if let first { gtk_toggle_button_set_group(crate_toggle_button(button), crate_toggle_button(first)) } else { first = button }
            GObjectScope.of(widget).connect(button, "toggled") { [weak self] in
                guard let self, gtk_toggle_button_get_active(crate_toggle_button(button)) != 0, filter != self.shown else { return }
                self.shown = filter
                self.onFilter?(filter)
            }
            Gtk.append(widget, button)
            buttons.append((filter, button))
        }
        show(filter: .seen, counts: CollectionCounts())
    }

    func show(filter: CollectionFilter, counts: CollectionCounts) {
        shown = filter
        for (each, button) in buttons {
            let name = Self.name(each)
            gtk_button_set_label(crate_button(button), L10n.tr("%@ %@", name, LibraryState.grouped(counts[each])))
            Gtk.setAccessibleLabel(button, L10n.tr("%@: %@ albums", name, counts[each]))
            if (gtk_toggle_button_get_active(crate_toggle_button(button)) != 0) != (each == filter) {
                gtk_toggle_button_set_active(crate_toggle_button(button), each == filter ? 1 : 0)
            }
        }
    }

    /// The button of `filter` (test events click it).
    func button(for filter: CollectionFilter) -> UnsafeMutablePointer<GtkWidget>? {
        buttons.first { $0.filter == filter }?.button
    }

    static func name(_ filter: CollectionFilter) -> String {
        switch filter {
        case .seen: return L10n.tr("All")
        case .owned: return L10n.tr("Owned")
        case .wanted: return L10n.tr("Wanted")
        }
    }
}
