import CGtk
import CrateCore

/// One album in the crate grid: artwork (or a gray square), title, artist.
@MainActor
final class AlbumGridCell {
    static let artworkSize: Int32 = 160

    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private var boundPath: String?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["album-cell"])
        picture = gtk_picture_new()!
        gtk_picture_set_can_shrink(crate_picture(picture), 1)
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_COVER)
        gtk_widget_set_size_request(picture, Self.artworkSize, Self.artworkSize)
        gtk_widget_add_css_class(picture, "album-artwork")
        titleLabel = Gtk.label("", classes: ["album-title"])
        artistLabel = Gtk.label("", classes: ["dim-label", "caption"])
        for label in [titleLabel, artistLabel] {
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(crate_label(label), 18)
            gtk_label_set_width_chars(crate_label(label), 18)
        }
        Gtk.append(widget, picture)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, artistLabel)
    }

    func show(_ summary: AlbumSummary) {
        Gtk.setText(titleLabel, summary.album.title)
        Gtk.setText(artistLabel, summary.album.artist)
        Gtk.setAccessibleLabel(widget, "\(summary.album.title) by \(summary.album.artist)")
        gtk_picture_set_paintable(crate_picture(picture), nil)
        gtk_widget_add_css_class(picture, "artwork-missing")
        boundPath = summary.album.thumbnailPath
        guard let path = boundPath else { return }
        TextureCache.thumbnails.texture(for: path) { [weak self] texture in
            // The cell may have been recycled for another album while the file loaded.
            guard let self, self.boundPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.picture), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.picture, "artwork-missing")
        }
    }

    func clear() {
        boundPath = nil
        gtk_picture_set_paintable(crate_picture(picture), nil)
    }
}
