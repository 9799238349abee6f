import CGtk
import CrateCore

/// A banner that slides down under the header bar with a message and a Dismiss button.
@MainActor
final class NoticeBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["notice-banner"])
        label = Gtk.label("")
        gtk_label_set_wrap(crate_label(label), 1)
        // Paths and addresses are long words: break inside them rather than widen the window.
        gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD_CHAR)
        // A wrapping label asks for its whole text as its minimum unless told otherwise: a
        // short minimum (and a readable natural width) lets the banner fit a 360 px window.
        gtk_label_set_width_chars(crate_label(label), 12)
        gtk_label_set_max_width_chars(crate_label(label), 90)
        gtk_label_set_xalign(crate_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        let dismiss = gtk_button_new_with_label(L10n.tr("Dismiss"))!
        GObjectScope.of(widget).connect(dismiss, "clicked") { [weak self] in self?.hide() }
        Gtk.append(box, label)
        Gtk.append(box, dismiss)
        gtk_revealer_set_child(crate_revealer(widget), box)
    }

    /// What the banner says while it is shown (the test events report it).
    private(set) var shown: (message: String, isError: Bool)?
    var onShow: ((String, Bool) -> Void)?

    /// Shows `message` as plain text; `isError` switches to the error colours.
    func show(_ message: String, isError: Bool = false) {
        shown = (message, isError)
        onShow?(message, isError)
        Gtk.setText(label, message)
        if isError { gtk_widget_add_css_class(widget, "error") } else { gtk_widget_remove_css_class(widget, "error") }
        gtk_revealer_set_reveal_child(crate_revealer(widget), 1)
    }

    func hide() {
        shown = nil
        gtk_revealer_set_reveal_child(crate_revealer(widget), 0)
    }
}
