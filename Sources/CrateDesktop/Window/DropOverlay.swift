import CGtk
import CrateCore

/// Covers the window while an image is dragged over it: "Drop a cover photo to scan".
@MainActor
final class DropOverlay {
    let widget: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12, classes: ["drop-overlay"])
        gtk_widget_set_can_target(widget, 0)  // Never steal the drop from the window's target.
        let inner = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12, classes: ["drop-target-frame"])
        gtk_widget_set_hexpand(inner, 1)
        gtk_widget_set_vexpand(inner, 1)
        let icon = gtk_image_new_from_icon_name("insert-image-symbolic")!
        gtk_image_set_pixel_size(crate_image(icon), 96)
        gtk_widget_set_valign(icon, GTK_ALIGN_END)
        gtk_widget_set_vexpand(icon, 1)
        let label = Gtk.label(L10n.tr("Drop a cover photo to scan"), classes: ["title-1"], xalign: 0.5)
        gtk_widget_set_valign(label, GTK_ALIGN_START)
        gtk_widget_set_vexpand(label, 1)
        Gtk.append(inner, icon)
        Gtk.append(inner, label)
        Gtk.append(widget, inner)
        gtk_widget_set_visible(widget, 0)
    }

    func setVisible(_ visible: Bool) {
        gtk_widget_set_visible(widget, visible ? 1 : 0)
    }
}
