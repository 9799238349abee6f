import CGtk
import CrateCore

/// One album in the crate grid: artwork (or a gray square), title, artist.
@MainActor
final class AlbumGridCell {
    /// Small enough for two columns in a 360 px window.
    static let artworkSize: Int32 = 140

    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private var playButton: UnsafeMutablePointer<GtkWidget>?
    private var boundPath: String?
    private var boundID: Int64?
    var onPlay: ((Int64) -> Void)?

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
            gtk_label_set_max_width_chars(crate_label(label), 16)
            gtk_label_set_width_chars(crate_label(label), 16)
        }
        // A play button over the artwork's corner: plays this album, then the grid after it.
        let artwork = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(artwork), picture)
        let play = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        gtk_widget_add_css_class(play, "grid-play")
        gtk_widget_add_css_class(play, "circular")
        gtk_widget_set_halign(play, GTK_ALIGN_END)
        gtk_widget_set_valign(play, GTK_ALIGN_END)
        gtk_widget_set_margin_end(play, 8)
        gtk_widget_set_margin_bottom(play, 8)
        gtk_widget_set_tooltip_text(play, "Play")
        gtk_overlay_add_overlay(crate_overlay(artwork), play)
        GObjectScope.of(widget).connect(play, "clicked") { [weak self] in
            guard let self, let id = self.boundID else { return }
            self.onPlay?(id)
        }
        self.playButton = play
        Gtk.append(widget, artwork)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, artistLabel)
    }

    func show(_ summary: AlbumSummary) {
        Gtk.setText(titleLabel, summary.album.title)
        Gtk.setText(artistLabel, summary.album.artist)
        Gtk.setAccessibleLabel(widget, "\(summary.album.title) by \(summary.album.artist)")
        boundID = summary.album.id
        if let playButton { Gtk.setAccessibleLabel(playButton, "Play \(summary.album.title)") }
        gtk_picture_set_paintable(crate_picture(picture), nil)
        gtk_widget_add_css_class(picture, "artwork-missing")
        boundPath = summary.album.thumbnailURL(in: TextureCache.artworkDirectory)?.path
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
