import CGtk
import CrateCore

/// The red banner that slides down with a scan failure ("Unable to identify this cover art")
/// and dismisses itself after 3 seconds.
@MainActor
final class ErrorBanner {
    static let duration: UInt32 = 3

    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    /// Hides the banner; removed with the widget if the window closes first.
    private var hideTimeout: GObjectScope.Source?

    init() {
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_widget_set_halign(widget, GTK_ALIGN_FILL)
        let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, classes: ["error-banner"])
        let icon = gtk_image_new_from_icon_name("dialog-error-symbolic")!
        label = Gtk.label("", xalign: 0.5)
        gtk_widget_set_hexpand(label, 1)
        gtk_label_set_wrap(crate_label(label), 1)
        // Paths and addresses are long words: break inside them rather than widen the window.
        gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_width_chars(crate_label(label), 12)
        gtk_label_set_max_width_chars(crate_label(label), 90)
        Gtk.append(box, icon)
        Gtk.append(box, label)
        gtk_revealer_set_child(crate_revealer(widget), box)
        gtk_accessible_set_role_alert(widget)
    }

    func show(_ message: String) {
        Gtk.setText(label, message)
        gtk_revealer_set_reveal_child(crate_revealer(widget), 1)
        let scope = GObjectScope.of(widget)
        scope.remove(hideTimeout)
        hideTimeout = scope.after(seconds: Self.duration) { [weak self] in
            guard let self else { return }
            self.hideTimeout = nil
            gtk_revealer_set_reveal_child(crate_revealer(self.widget), 0)
        }
    }
}

/// Screen readers announce an alert role when the banner appears.
private func gtk_accessible_set_role_alert(_ widget: UnsafeMutablePointer<GtkWidget>) {
    Gtk.setAccessibleLabel(widget, L10n.tr("Scan error"))
}
