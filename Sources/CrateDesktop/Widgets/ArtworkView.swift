import CGtk
import CrateCore

/// The detail pane's artwork: the 500 px cover (or a gray "Album art unavailable" square) with
/// the recommendation label and rating on a black band along its bottom edge.
@MainActor
final class ArtworkView {
    /// The smallest the cover gets: it fits the pane at 360 px wide (24 px margins each side).
    static let minimumSize: Int32 = 280
    /// The size it asks for: the pane's 440 px beside the grid, less its margins.
    static let naturalSize: Int32 = 392

    let widget: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    private let band: UnsafeMutablePointer<GtkWidget>
    private let recommendationLabel: UnsafeMutablePointer<GtkWidget>
    private let ratingLabel: UnsafeMutablePointer<GtkWidget>
    private var shownPath: String?

    init() {
        // An aspect frame keeps the artwork (and the gray placeholder) square.
        widget = gtk_aspect_frame_new(0.5, 0.5, 1, 0)!
        let overlay = gtk_overlay_new()!
        gtk_widget_set_size_request(overlay, Self.minimumSize, Self.minimumSize)
        gtk_aspect_frame_set_child(OpaquePointer(widget), overlay)
        // Overlay layers do not count when GTK measures, so an empty picture gives the artwork
        // its natural size (and the pane its width beside the grid) while it can still shrink.
        let sizer = gtk_picture_new()!
        let empty = gdk_paintable_new_empty(Self.naturalSize, Self.naturalSize)!
        gtk_picture_set_paintable(crate_picture(sizer), empty)
        g_object_unref(UnsafeMutableRawPointer(empty))
        gtk_picture_set_can_shrink(crate_picture(sizer), 1)
        gtk_overlay_set_child(crate_overlay(overlay), sizer)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(widget, "detail-artwork")

        placeholder = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8, classes: ["artwork-unavailable"])
        let icon = gtk_image_new_from_icon_name("image-missing-symbolic")!
        gtk_image_set_pixel_size(crate_image(icon), 48)
        gtk_widget_set_valign(placeholder, GTK_ALIGN_FILL)
        let text = Gtk.label(L10n.tr("Album art unavailable"), xalign: 0.5)
        let inner = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        gtk_widget_set_valign(inner, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(inner, 1)
        Gtk.append(inner, icon)
        Gtk.append(inner, text)
        Gtk.append(placeholder, inner)
        gtk_overlay_add_overlay(crate_overlay(overlay), placeholder)

        picture = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(crate_picture(picture), 1)
        gtk_overlay_add_overlay(crate_overlay(overlay), picture)

        band = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, classes: ["recommendation-band"])
        gtk_widget_set_valign(band, GTK_ALIGN_END)
        recommendationLabel = Gtk.label("", classes: ["recommendation"])
        gtk_widget_set_hexpand(recommendationLabel, 1)
        ratingLabel = Gtk.label("", classes: ["rating"], xalign: 1)
        Gtk.append(band, recommendationLabel)
        Gtk.append(band, ratingLabel)
        gtk_overlay_add_overlay(crate_overlay(overlay), band)
    }

    func show(album: Album, review: Review?) {
        if let review {
            Gtk.setText(recommendationLabel, review.recommendation)
            Gtk.setText(ratingLabel, String(format: "%.1f", review.rating))
            gtk_widget_set_visible(band, 1)
        } else {
            gtk_widget_set_visible(band, 0)
        }
        let path = album.artworkStatus == .available ? album.artworkURL(in: TextureCache.artworkDirectory)?.path : nil
        Gtk.setAccessibleLabel(picture, L10n.tr("Cover of %@", album.title))
        guard path != shownPath || path == nil else { return }
        shownPath = path
        gtk_picture_set_paintable(crate_picture(picture), nil)
        gtk_widget_set_visible(picture, 0)
        guard let path else { return }
        TextureCache.artwork.texture(for: path) { [weak self] texture in
            guard let self, self.shownPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.picture), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_set_visible(self.picture, 1)
        }
    }
}
