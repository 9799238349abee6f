import CGtk
import CrateCore

/// The album pane's record: the release's facts ("12\" Vinyl · Harvest · SHVL 804 · GB · 1973",
/// the barcode), "I Own This" / "Want", "Spin This Record" (follow it on the user's turntable),
/// and the copies owned, each with its remove button.
@MainActor
final class RecordSection {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let factsLabel: UnsafeMutablePointer<GtkWidget>
    private let barcodeLabel: UnsafeMutablePointer<GtkWidget>
    let ownButton: UnsafeMutablePointer<GtkWidget>
    let wantButton: UnsafeMutablePointer<GtkWidget>
    /// `win.album-spin` for the album shown (its target is set by `show`).
    let spinButton: UnsafeMutablePointer<GtkWidget>
    private let copiesBox: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var copyRows: [UnsafeMutablePointer<GtkWidget>] = []
    var onOwn: (() -> Void)?
    var onWant: (() -> Void)?
    var onRemoveCopy: ((OwnedCopy) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6, classes: ["record-section"])
        factsLabel = Gtk.label("", classes: ["record-facts"], xalign: 0.5)
        barcodeLabel = Gtk.label("", classes: ["dim-label", "caption", "record-barcode"], xalign: 0.5)
        for label in [factsLabel, barcodeLabel] {
            Gtk.wrap(label)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
            // Release facts are for copying into a shop's search or a discogs query.
            gtk_label_set_selectable(crate_label(label), 1)
        }
        let buttons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        ownButton = gtk_button_new_with_mnemonic(L10n.tr("I _Own This"))!
        wantButton = gtk_toggle_button_new_with_mnemonic(L10n.tr("_Want"))!
        gtk_widget_add_css_class(ownButton, "pill")
        gtk_widget_add_css_class(wantButton, "pill")
        Gtk.setTooltip(ownButton, L10n.tr("Add a copy of this record to what you own (Ctrl+Shift+O)"))
        Gtk.setTooltip(wantButton, L10n.tr("Put this album on your wantlist (Ctrl+Shift+W)"))
        // An icon beside the two pills: three pills do not fit a 360 px pane.
        spinButton = Gtk.iconButton("media-optical-symbolic", label: L10n.tr("Spin this record: follow it on your turntable and send its tracks as listens"))
        gtk_widget_add_css_class(spinButton, "circular")
        gtk_widget_set_valign(spinButton, GTK_ALIGN_CENTER)
        Gtk.append(buttons, ownButton)
        Gtk.append(buttons, wantButton)
        Gtk.append(buttons, spinButton)
        copiesBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2, classes: ["record-copies"])
        errorLabel = Gtk.label("", classes: ["error", "caption"], xalign: 0.5)
        Gtk.wrap(errorLabel)
        for child in [factsLabel, barcodeLabel, buttons, copiesBox, errorLabel] { Gtk.append(widget, child) }
        let scope = GObjectScope.of(widget)
        scope.connect(ownButton, "clicked") { [weak self] in self?.onOwn?() }
        scope.connect(wantButton, "clicked") { [weak self] in self?.onWant?() }
    }

    func show(_ state: RecordState) {
        let facts = state.factsLine
        Gtk.setText(factsLabel, facts ?? "")
        gtk_widget_set_visible(factsLabel, facts == nil ? 0 : 1)
        let barcode = state.facts?.barcode
        Gtk.setText(barcodeLabel, barcode.map { L10n.tr("Barcode %@", $0) } ?? "")
        gtk_widget_set_visible(barcodeLabel, barcode == nil ? 0 : 1)
        let copies = state.collection.copies
        let ownLabel = copies.isEmpty ? L10n.tr("I _Own This") : L10n.tr("_Add a Copy")
        gtk_button_set_label(crate_button(ownButton), ownLabel)
        Gtk.setAccessibleLabel(ownButton, copies.isEmpty ? L10n.tr("I own this") : L10n.tr("Add a copy"))
        // The store's state is the truth ("clicked", which the pane listens to, is not emitted here).
        let wanted = state.collection.isWanted
        gtk_toggle_button_set_active(crate_toggle_button(wantButton), wanted ? 1 : 0)
        gtk_button_set_label(crate_button(wantButton), wanted ? L10n.tr("_Wanted") : L10n.tr("_Want"))
        Gtk.setAccessibleLabel(wantButton, wanted ? L10n.tr("Wanted: take it off your wantlist") : L10n.tr("Want"))
        showCopies(copies)
        Gtk.setText(errorLabel, state.errorMessage ?? "")
        gtk_widget_set_visible(errorLabel, state.errorMessage == nil ? 0 : 1)
        if let id = state.albumID {
            gtk_actionable_set_action_target_value(crate_actionable(spinButton), g_variant_new_int64(gint64(id)))
            gtk_actionable_set_action_name(crate_actionable(spinButton), "win.album-spin")
        }
        gtk_widget_set_visible(widget, state.albumID == nil ? 0 : 1)
    }

    private func showCopies(_ copies: [OwnedCopy]) {
        for row in copyRows { gtk_box_remove(crate_box(copiesBox), row) }
        copyRows = []
        for copy in copies {
            let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, classes: ["record-copy"])
            let parts = [copy.format ?? L10n.tr("Format not given"), copy.note].compactMap { $0 }
            let label = Gtk.label(L10n.tr("Owned: %@", parts.joined(separator: " — ")), classes: ["record-copy-label"], xalign: 1)
            // The label takes the row's width (a centred row gave it its minimum: one word a line).
            Gtk.wrap(label)
            gtk_widget_set_hexpand(label, 1)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_RIGHT)
            let remove = Gtk.iconButton("list-remove-symbolic", label: L10n.tr("Remove this copy"))
            gtk_widget_add_css_class(remove, "flat")
            gtk_widget_add_css_class(remove, "circular")
            Gtk.setTooltip(remove, L10n.tr("Remove this copy"))
            GObjectScope.of(widget).connect(remove, "clicked") { [weak self] in self?.onRemoveCopy?(copy) }
            Gtk.append(row, label)
            Gtk.append(row, remove)
            Gtk.append(copiesBox, row)
            copyRows.append(row)
        }
        gtk_widget_set_visible(copiesBox, copies.isEmpty ? 0 : 1)
    }
}
