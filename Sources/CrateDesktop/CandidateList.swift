import CGtk
import CrateCore

/// "Not this album?": the other releases the scan could have been, each a button that switches.
@MainActor
final class CandidateList {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var onChoose: ((Album) -> Void)?

    init() {
        widget = gtk_expander_new("Not this album?")!
        list = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["candidates"])
        gtk_expander_set_child(OpaquePointer(widget), list)
        gtk_widget_set_visible(widget, 0)
    }

    /// Shows the runners-up `store` offers and sends a pick back to it; redraws only when they
    /// change, so hiding the list (another album selected) lasts until the next scan.
    func bind(to store: ScanStore) -> ObservationToken {
        onChoose = { [weak store] album in store?.choose(album) }
        var shown: [ScanCandidate] = []
        return store.state.subscribe(initial: true) { [weak self] state in
            guard state.candidates != shown else { return }
            shown = state.candidates
            self?.show(shown)
        }
    }

    func show(_ candidates: [ScanCandidate]) {
        while let child = gtk_widget_get_first_child(list) { gtk_box_remove(crate_box(list), child) }
        for candidate in candidates.prefix(5).map(\.album) {
            let button = gtk_button_new()!
            gtk_widget_add_css_class(button, "flat")
            let year = candidate.year.map { " (\($0))" } ?? ""
            let label = Gtk.label("\(candidate.title) — \(candidate.artist)\(year)")  // Plain text: from MusicBrainz.
            Gtk.wrap(label)
            gtk_button_set_child(crate_button(button), label)
            Gtk.setAccessibleLabel(button, "Switch to \(candidate.title) by \(candidate.artist)")
            GObjectScope.of(widget).connect(button, "clicked") { [weak self] in self?.onChoose?(candidate) }
            Gtk.append(list, button)
        }
        gtk_widget_set_visible(widget, candidates.isEmpty ? 0 : 1)
    }
}
