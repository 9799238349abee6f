import CGtk
import CrateCore

/// The Tracks tab: the album's tracks in disc order with their durations.
@MainActor
final class TrackListView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let emptyLabel: UnsafeMutablePointer<GtkWidget>
    /// Plays the track at this index of the list (disc order).
    var onPlay: ((Int) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_widget_add_css_class(list, "track-list")
        Gtk.setAccessibleLabel(list, "Tracks")
        emptyLabel = Gtk.label("No track list for this album yet.", classes: ["dim-label"], xalign: 0.5)
        Gtk.append(widget, list)
        Gtk.append(widget, emptyLabel)
    }

    func show(_ tracks: [Track]) {
        // gtk_list_box_remove_all arrived in GTK 4.12; Debian 12 has 4.8.
        while let child = gtk_widget_get_first_child(list) {
            gtk_list_box_remove(crate_list_box(list), child)
        }
        let multiDisc = Set(tracks.map(\.disc)).count > 1
        var lastDisc: Int?
        for (index, track) in tracks.enumerated() {
            if multiDisc && track.disc != lastDisc {
                let header = Gtk.label("Disc \(track.disc)", classes: ["heading", "disc-header"])
                gtk_list_box_append(crate_list_box(list), header)
                lastDisc = track.disc
            }
            gtk_list_box_append(crate_list_box(list), row(track, index: index))
        }
        gtk_widget_set_visible(list, tracks.isEmpty ? 0 : 1)
        gtk_widget_set_visible(emptyLabel, tracks.isEmpty ? 1 : 0)
    }

    private func row(_ track: Track, index: Int) -> UnsafeMutablePointer<GtkWidget> {
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["track-row"])
        let play = Gtk.iconButton("media-playback-start-symbolic", label: "Play \(track.title)")
        gtk_widget_add_css_class(play, "flat")
        GObjectScope.of(widget).connect(play, "clicked") { [weak self] in self?.onPlay?(index) }
        let number = Gtk.label(track.number ?? String(track.position), classes: ["dim-label", "numeric"], xalign: 1)
        gtk_label_set_width_chars(crate_label(number), 3)
        let title = Gtk.label(track.title)
        gtk_label_set_ellipsize(crate_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(title, 1)
        let duration = Gtk.label(Self.format(track.durationMs), classes: ["dim-label", "numeric"], xalign: 1)
        Gtk.append(row, play)
        Gtk.append(row, number)
        Gtk.append(row, title)
        Gtk.append(row, duration)
        return row
    }

    static func format(_ milliseconds: Int?) -> String {
        guard let milliseconds, milliseconds > 0 else { return "" }
        let seconds = milliseconds / 1000
        return seconds >= 3600
            ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}
