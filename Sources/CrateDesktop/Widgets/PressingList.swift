import CGtk
import CrateCore

/// "Not this pressing?": an expander under the record section that, opened, lists the releases of
/// the album's release group with what tells them apart ("12\" Vinyl · GB · 1973 · Harvest ·
/// SHVL 804"); activating a row switches the album to that release. The current one is marked
/// and not activatable.
@MainActor
final class PressingList {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let messageLabel: UnsafeMutablePointer<GtkWidget>
    private var shown: [Pressing] = []
    /// The list was opened (load it) or closed.
    var onExpanded: ((Bool) -> Void)?
    var onChoose: ((Pressing) -> Void)?
    /// The list was just read for the user: the pane scrolls it into view.
    var onReveal: ((UnsafeMutablePointer<GtkWidget>) -> Void)?
    /// Called after a list is drawn, with its rows as their accessible labels (test events).
    var onListed: (([String]) -> Void)?
    /// Set while `show` changes the expander, so its own signal is not taken for the user's.
    private var rendering = false
    /// The user opened the list: once it is read, focus goes to its first other pressing, which
    /// also scrolls the pane to it.
    private var focusWhenListed = false

    init() {
        widget = gtk_expander_new_with_mnemonic(L10n.tr("Not this _pressing?"))!
        gtk_widget_add_css_class(widget, "pressings")
        let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        gtk_widget_set_margin_top(box, 6)
        spinner = gtk_spinner_new()!
        Gtk.setAccessibleLabel(spinner, L10n.tr("Reading the pressings from MusicBrainz"))
        messageLabel = Gtk.label("", classes: ["dim-label", "caption"], xalign: 0.5)
        Gtk.wrap(messageLabel)
        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        for child in [spinner, messageLabel, list] { Gtk.append(box, child) }
        gtk_expander_set_child(OpaquePointer(widget), box)
        let scope = GObjectScope.of(widget)
        scope.connect(widget, "notify::expanded") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let expanded = gtk_expander_get_expanded(OpaquePointer(self.widget)) != 0
            self.focusWhenListed = expanded
            self.onExpanded?(expanded)
        }
        scope.connect(list, "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(crate_list_box_row(row)))
            guard self.shown.indices.contains(index) else { return }
            self.onChoose?(self.shown[index])
        }
    }

    /// Hidden for albums never matched to a MusicBrainz release group (they have no pressings).
    func setAvailable(_ available: Bool) {
        gtk_widget_set_visible(widget, available ? 1 : 0)
    }

    func show(_ state: PressingsState) {
        rendering = true
        defer { rendering = false }
        gtk_expander_set_expanded(OpaquePointer(widget), state.isOpen ? 1 : 0)
        let loading = state.phase == .loading || state.switchingTo != nil
        gtk_widget_set_visible(spinner, loading ? 1 : 0)
        crate_spinner_set(spinner, loading ? 1 : 0)
        var message: String?
        switch state.phase {
        case .failed(let text): message = text
        case .loaded(let pressings) where pressings.isEmpty: message = L10n.tr("MusicBrainz lists no other pressings of this album.")
        default: message = state.switchError
        }
        if state.switchingTo != nil { message = L10n.tr("Switching to this pressing…") }
        Gtk.setText(messageLabel, message ?? "")
        gtk_widget_set_visible(messageLabel, message == nil ? 0 : 1)
        let pressings: [Pressing]
        if case .loaded(let loaded) = state.phase { pressings = loaded } else { pressings = [] }
        fill(pressings, current: state.currentReleaseID, enabled: state.switchingTo == nil)
        if focusWhenListed, case .loaded = state.phase {
            focusWhenListed = false
            let other = pressings.firstIndex { $0.releaseID.rawValue != state.currentReleaseID } ?? 0
            if let row = row(at: other) { gtk_widget_grab_focus(row) }
            onReveal?(list)
        }
    }

    /// Row `index` of the list shown (test events click it).
    func row(at index: Int) -> UnsafeMutablePointer<GtkWidget>? {
        gtk_list_box_get_row_at_index(crate_list_box(list), Int32(index)).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
    }

    // MARK: - Private

    private func fill(_ pressings: [Pressing], current: String?, enabled: Bool) {
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(crate_list_box(list), child) }
        shown = pressings
        var labels: [String] = []
        for pressing in pressings {
            let isCurrent = pressing.releaseID.rawValue == current
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_activatable(crate_list_box_row(row), isCurrent || !enabled ? 0 : 1)
            gtk_widget_add_css_class(row, "pressing-row")
            let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
            for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(box, 6) }
            gtk_widget_set_margin_start(box, 10)
            gtk_widget_set_margin_end(box, 10)
            let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
            gtk_widget_set_hexpand(text, 1)
            // Plain text: from MusicBrainz.
            let facts = pressing.distinguishing ?? L10n.tr("No release facts on MusicBrainz")
            let factsLabel = Gtk.label(facts, classes: ["pressing-facts"])
            let titleLabel = Gtk.label(pressing.title, classes: ["dim-label", "caption"])
            for label in [factsLabel, titleLabel] { Gtk.wrap(label) }
            Gtk.append(text, factsLabel)
            Gtk.append(text, titleLabel)
            Gtk.append(box, text)
            let accessible: String
            if isCurrent {
                let mark = Gtk.label(L10n.tr("This one"), classes: ["pressing-current", "caption"], xalign: 1)
                gtk_widget_set_valign(mark, GTK_ALIGN_CENTER)
                Gtk.append(box, mark)
                accessible = L10n.tr("This pressing: %@", facts)
            } else {
                let arrow = gtk_image_new_from_icon_name("go-next-symbolic")!
                gtk_widget_add_css_class(arrow, "dim-label")
                Gtk.append(box, arrow)
                Gtk.setTooltip(row, L10n.tr("Switch to this pressing"))
                accessible = L10n.tr("Switch to the pressing %@", facts)
            }
            gtk_list_box_row_set_child(crate_list_box_row(row), box)
            Gtk.setAccessibleLabel(row, accessible)
            gtk_list_box_append(crate_list_box(list), row)
            labels.append(accessible)
        }
        gtk_widget_set_visible(list, pressings.isEmpty ? 0 : 1)
        if !pressings.isEmpty { onListed?(labels) }
    }
}
