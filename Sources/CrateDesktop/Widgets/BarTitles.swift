import CGtk
import CrateCore

/// The middle of the playback bar and the turntable bar: the album, the track line, and the
/// track's progress and time under them — sized so a 360 px window still shows a few characters
/// of each beside the bar's buttons.
@MainActor
final class BarTitles {
    let widget: UnsafeMutablePointer<GtkWidget>
    let titleLabel: UnsafeMutablePointer<GtkWidget>
    let trackLabel: UnsafeMutablePointer<GtkWidget>
    let progress: UnsafeMutablePointer<GtkWidget>
    let timeLabel: UnsafeMutablePointer<GtkWidget>

    /// `progressName`: the progress bar's accessible name.
    init(progressName: String) {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        // The titles take what the controls leave.
        gtk_widget_set_hexpand(widget, 1)
        titleLabel = Gtk.label("", classes: ["heading"])
        trackLabel = Gtk.label("", classes: ["dim-label"])
        for label in [titleLabel, trackLabel] {
            // Ellipsized, but never to nothing: a few characters of each always show.
            gtk_label_set_width_chars(crate_label(label), 6)
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
            Gtk.append(widget, label)
        }
        // Progress and time go under the titles, not beside them: beside, their minimum widths
        // (Adwaita's trough is 150 px) left a 360 px window's titles no room but "…".
        progress = gtk_progress_bar_new()!
        gtk_widget_set_hexpand(progress, 1)
        gtk_widget_add_css_class(progress, "accent")
        gtk_widget_set_valign(progress, GTK_ALIGN_CENTER)
        Gtk.setAccessibleLabel(progress, progressName)
        timeLabel = Gtk.label("", classes: ["dim-label", "numeric", "caption"], xalign: 1)
        let progressRow = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        Gtk.append(progressRow, progress)
        Gtk.append(progressRow, timeLabel)
        Gtk.append(widget, progressRow)
    }

    /// The album line (also its tooltip), the track line, and how far the track is.
    func show(title: String, track: String, fraction: Double, time: String) {
        Gtk.setText(titleLabel, title)
        Gtk.setTooltip(titleLabel, title)
        Gtk.setText(trackLabel, track)
        gtk_progress_bar_set_fraction(OpaquePointer(progress), min(1, max(0, fraction)))
        Gtk.setText(timeLabel, time)
    }
}
