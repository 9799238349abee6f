import CGtk
import CrateCore

/// Under "View on Discogs": "In your Discogs collection (2 copies)" / "In your wantlist", and
/// "Add to Discogs Collection" / "Add to Wantlist". Hidden without a token or a Discogs release.
/// After a tap, "Adding to your Discogs collection…" until Discogs accepted it (offline: queued).
@MainActor
final class DiscogsAccountRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let pendingLabel: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    let collectionButton: UnsafeMutablePointer<GtkWidget>
    let wantlistButton: UnsafeMutablePointer<GtkWidget>
    var onAddToCollection: (() -> Void)?
    var onAddToWantlist: (() -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["discogs-account"])
        // Plain text throughout (`gtk_label_set_text`): counts and errors come from the network.
        statusLabel = Gtk.label("", classes: ["discogs-account-status"], xalign: 0.5)
        pendingLabel = Gtk.label("", classes: ["dim-label", "caption", "discogs-account-pending"], xalign: 0.5)
        errorLabel = Gtk.label("", classes: ["error", "caption"], xalign: 0.5)
        for label in [statusLabel, pendingLabel, errorLabel] {
            Gtk.wrap(label)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
        }
        let buttons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        collectionButton = gtk_button_new_with_label(L10n.tr("Add to Discogs Collection"))!
        wantlistButton = gtk_button_new_with_label(L10n.tr("Add to Wantlist"))!
        for button in [collectionButton, wantlistButton] {
            gtk_widget_add_css_class(button, "flat")
            Gtk.append(buttons, button)
        }
        Gtk.setTooltip(collectionButton, L10n.tr("Add this release to your collection on Discogs"))
        Gtk.setTooltip(wantlistButton, L10n.tr("Put this release on your wantlist on Discogs"))
        for child in [statusLabel, buttons, pendingLabel, errorLabel] { Gtk.append(widget, child) }
        gtk_widget_set_visible(widget, 0)
        let scope = GObjectScope.of(widget)
        scope.connect(collectionButton, "clicked") { [weak self] in self?.onAddToCollection?() }
        scope.connect(wantlistButton, "clicked") { [weak self] in self?.onAddToWantlist?() }
    }

    func show(_ state: DiscogsAccountState) {
        guard state.isAvailable else {
            gtk_widget_set_visible(widget, 0)
            return
        }
        gtk_widget_set_visible(widget, 1)
        Self.set(statusLabel, state.statusLine)
        Self.set(pendingLabel, state.pendingLine)
        Self.set(errorLabel, state.errorMessage)
        gtk_button_set_label(crate_button(collectionButton), state.collectionButtonTitle)
        Gtk.setAccessibleLabel(collectionButton, state.collectionButtonTitle)
        gtk_widget_set_visible(collectionButton, state.canAddToCollection ? 1 : 0)
        gtk_widget_set_visible(wantlistButton, state.canAddToWantlist ? 1 : 0)
        if WidgetEvents.isObserved {
            WidgetEvents.say("discogs-account status=\(state.statusLine ?? "-") pending=\(state.pending.map(\.action.rawValue).joined(separator: ","))")
            // Where a UI test clicks.
            if let root = gtk_widget_get_root(widget) {
                let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
                if state.canAddToCollection { WidgetEvents.place("discogs-add-collection", of: collectionButton, in: window) }
                if state.canAddToWantlist { WidgetEvents.place("discogs-add-wantlist", of: wantlistButton, in: window) }
            }
        }
    }

    private static func set(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String?) {
        Gtk.setText(label, text ?? "")
        gtk_widget_set_visible(label, text == nil ? 0 : 1)
    }
}
