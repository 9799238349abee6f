import CGtk
import CrateCore
import Foundation

/// One release group on an artist's page: its cover (fetched when the tile is first mapped, so
/// a long catalogue only downloads what is scrolled to), title, and year and type. It keeps its
/// place when the catalogue changes: it can show another release group (`show(_:)`).
@MainActor
final class ArtistTileView {
    static let artworkSize: Int32 = 136

    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var entry: ReleaseGroupEntry
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let detailsLabel: UnsafeMutablePointer<GtkWidget>
    /// The cover's stored path (relative to the artwork cache), once it is there.
    private(set) var artworkPath: String?
    private var requested = false
    /// Asked once, when the tile is first on screen: the stored path of its cover, or nil.
    var loadCover: ((ReleaseGroupEntry) async -> String?)?

    init(entry: ReleaseGroupEntry) {
        self.entry = entry
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["album-cell", "artist-tile"])
        picture = gtk_picture_new()!
        gtk_picture_set_can_shrink(crate_picture(picture), 1)
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_COVER)
        gtk_widget_set_size_request(picture, Self.artworkSize, Self.artworkSize)
        gtk_widget_add_css_class(picture, "album-artwork")
        gtk_widget_add_css_class(picture, "artwork-missing")
        titleLabel = Gtk.label(entry.title, classes: ["album-title"])
        detailsLabel = Gtk.label(Self.details(entry), classes: ["dim-label", "caption"])
        for label in [titleLabel, detailsLabel] {
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(crate_label(label), 16)
            gtk_label_set_width_chars(crate_label(label), 16)
        }
        // As on the wall: the clamp holds the tile's natural width to the art's size.
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), Self.artworkSize)
        adw_clamp_set_tightening_threshold(crate_clamp(clamp), Self.artworkSize)
        adw_clamp_set_child(crate_clamp(clamp), picture)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        Gtk.append(widget, clamp)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, detailsLabel)
        Gtk.setAccessibleLabel(widget, L10n.tr("%@, %@", entry.title, entry.year ?? L10n.tr("no date")))
        GObjectScope.of(widget).connect(widget, "map") { [weak self] in self?.requestCover() }
    }

    /// "1994 · Album · Live".
    private static func details(_ entry: ReleaseGroupEntry) -> String {
        var details = [entry.year ?? L10n.tr("No date")]
        if let type = entry.primaryType { details.append(type) }
        details.append(contentsOf: entry.secondaryTypes)
        return details.joined(separator: " · ")
    }

    /// Shows another release group in this place (or the same one's corrected details).
    func show(_ next: ReleaseGroupEntry) {
        let previous = entry
        entry = next
        Gtk.setText(titleLabel, next.title)
        Gtk.setText(detailsLabel, Self.details(next))
        Gtk.setAccessibleLabel(widget, L10n.tr("%@, %@", next.title, next.year ?? L10n.tr("no date")))
        guard next.id != previous.id else { return }
        // Another album: the gray square until its own cover is here.
        artworkPath = nil
        requested = false
        gtk_picture_set_paintable(crate_picture(picture), nil)
        gtk_widget_add_css_class(picture, "artwork-missing")
        if gtk_widget_get_mapped(widget) != 0 { requestCover() }
    }

    private func requestCover() {
        guard !requested, let loadCover else { return }
        requested = true
        let wanted = entry
        Task { [weak self] in
            guard let path = await loadCover(wanted), let self, self.entry.id == wanted.id else { return }
            self.show(path: path)
        }
    }

    private func show(path: String) {
        artworkPath = path
        guard let file = ArtworkCache.url(forStoredPath: path, in: TextureCache.artworkDirectory)?.path else { return }
        TextureCache.thumbnails.texture(for: file) { [weak self] texture in
            guard let self, let texture, self.artworkPath == path else { return }
            gtk_picture_set_paintable(crate_picture(self.picture), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.picture, "artwork-missing")
        }
    }
}
