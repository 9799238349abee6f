import CGtk

/// The first-run page: what to do when the crate is empty.
@MainActor
final class EmptyStateView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let detailLabel: UnsafeMutablePointer<GtkWidget>
    /// The pill under the text, when the page has one.
    private(set) var actionButton: UnsafeMutablePointer<GtkWidget>?

    /// `button`: a pill under the text that activates a window action (e.g. "win.scan").
    init(icon: String = "media-optical-symbolic", title: String, detail: String, button: (label: String, action: String)? = nil) {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12, classes: ["empty-state"])
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(widget, 1)
        let image = gtk_image_new_from_icon_name(icon)!
        gtk_image_set_pixel_size(crate_image(image), 96)
        gtk_widget_add_css_class(image, "dim-label")
        titleLabel = Gtk.label(title, classes: ["title-1"], xalign: 0.5)
        // Wrapped, so the page fits a 360 px window.
        Gtk.wrap(titleLabel)
        gtk_label_set_justify(crate_label(titleLabel), GTK_JUSTIFY_CENTER)
        detailLabel = Gtk.label(detail, classes: ["dim-label"], xalign: 0.5)
        gtk_label_set_wrap(crate_label(detailLabel), 1)
        gtk_label_set_max_width_chars(crate_label(detailLabel), 50)
        gtk_label_set_justify(crate_label(detailLabel), GTK_JUSTIFY_CENTER)
        Gtk.append(widget, image)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, detailLabel)
        if let button {
            let pill = gtk_button_new_with_mnemonic(button.label)!
            gtk_actionable_set_action_name(crate_actionable(pill), button.action)
            gtk_widget_add_css_class(pill, "pill")
            gtk_widget_add_css_class(pill, "suggested-action")
            gtk_widget_set_halign(pill, GTK_ALIGN_CENTER)
            gtk_widget_set_margin_top(pill, 6)
            Gtk.append(widget, pill)
            actionButton = pill
        }
    }

    func update(title: String, detail: String) {
        Gtk.setText(titleLabel, title)
        Gtk.setText(detailLabel, detail)
    }
}
