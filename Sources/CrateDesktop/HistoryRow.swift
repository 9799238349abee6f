import CGtk
import CrateCore
import Foundation

/// One row of the history list: thumbnail, title, artist, scan date.
@MainActor
final class HistoryRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let thumbnail: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private let dateLabel: UnsafeMutablePointer<GtkWidget>
    private var boundPath: String?

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()

    init() {
        widget = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["history-row"])
        thumbnail = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(thumbnail), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(crate_picture(thumbnail), 1)
        gtk_widget_set_size_request(thumbnail, 48, 48)
        gtk_widget_add_css_class(thumbnail, "history-thumbnail")
        let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        titleLabel = Gtk.label("", classes: ["heading"])
        artistLabel = Gtk.label("", classes: ["dim-label"])
        for label in [titleLabel, artistLabel] {
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
        }
        dateLabel = Gtk.label("", classes: ["dim-label", "caption"], xalign: 1)
        gtk_widget_set_valign(dateLabel, GTK_ALIGN_CENTER)
        Gtk.append(text, titleLabel)
        Gtk.append(text, artistLabel)
        Gtk.append(widget, thumbnail)
        Gtk.append(widget, text)
        Gtk.append(widget, dateLabel)
    }

    /// Shows an entry. Every string is set as plain text: album titles come from the network.
    func show(_ entry: HistoryEntry) {
        Gtk.setText(titleLabel, entry.album.title)
        Gtk.setText(artistLabel, entry.album.artist)
        Gtk.setText(dateLabel, Self.dateFormatter.string(from: entry.scan.scannedAt))
        Gtk.setAccessibleLabel(widget, "\(entry.album.title) by \(entry.album.artist), scanned \(Self.dateFormatter.string(from: entry.scan.scannedAt))")
        // Loaded off the main thread through the shared, bounded cache.
        gtk_picture_set_paintable(crate_picture(thumbnail), nil)
        gtk_widget_add_css_class(thumbnail, "artwork-missing")
        boundPath = entry.album.thumbnailURL(in: TextureCache.artworkDirectory)?.path
        guard let path = boundPath else { return }
        TextureCache.thumbnails.texture(for: path) { [weak self] texture in
            guard let self, self.boundPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.thumbnail), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.thumbnail, "artwork-missing")
        }
    }
}
