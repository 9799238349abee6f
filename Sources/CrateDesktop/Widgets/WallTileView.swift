import CGtk
import CrateCore
import Foundation

/// One album on the Crate Wall: its cover (or a gray square), title, artist, which signal put it
/// there, and a heart and a ✕.
///
/// A tile keeps its place when the page's list changes: it can show another album (`show(_:)`)
/// instead of being replaced, so a click or the keyboard focus on it is never lost.
@MainActor
final class WallTileView {
    static let artworkSize: Int32 = 136

    let widget: UnsafeMutablePointer<GtkWidget>
    /// The album shown.
    private(set) var tile: WallTile
    private var signalTitle: String?
    var releaseGroupID: MBID { tile.item.releaseGroupID }
    private let heart: UnsafeMutablePointer<GtkWidget>
    private let cross: UnsafeMutablePointer<GtkWidget>
    /// The ✕ (the UI tests click it).
    var dislikeButton: UnsafeMutablePointer<GtkWidget> { cross }
    private let picture: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private let signalLabel: UnsafeMutablePointer<GtkWidget>
    private var rating: AlbumRating?
    /// The art file shown (nil: the gray square).
    private var shownArtwork: String?
    /// The heart or ✕ on the album shown: the album and the rating asked for.
    var onRate: ((RatedAlbum, AlbumRating?) -> Void)?

    /// - Parameter signalTitle: what put the album there when it is not a wall signal (a genre
    ///   feed's "Subcategory Rotation").
    init(tile: WallTile, signalTitle: String? = nil) {
        self.tile = tile
        self.signalTitle = signalTitle
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["album-cell", "wall-tile"])
        picture = gtk_picture_new()!
        gtk_picture_set_can_shrink(crate_picture(picture), 1)
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_COVER)
        gtk_widget_set_size_request(picture, Self.artworkSize, Self.artworkSize)
        gtk_widget_add_css_class(picture, "album-artwork")
        gtk_widget_add_css_class(picture, "artwork-missing")
        let artwork = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(artwork), picture)

        heart = Gtk.iconButton("emblem-favorite-symbolic", label: L10n.tr("Favourite"))
        cross = Gtk.iconButton("window-close-symbolic", label: L10n.tr("Not for me"))
        let buttons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        for button in [heart, cross] {
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_add_css_class(button, "osd")
            Gtk.append(buttons, button)
        }
        Gtk.setTooltip(heart, L10n.tr("Favourite"))
        Gtk.setTooltip(cross, L10n.tr("Not for me"))
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        gtk_widget_set_valign(buttons, GTK_ALIGN_END)
        gtk_widget_set_margin_end(buttons, 6)
        gtk_widget_set_margin_bottom(buttons, 6)
        gtk_overlay_add_overlay(crate_overlay(artwork), buttons)

        // Network text goes in as plain text, never markup.
        titleLabel = Gtk.label(tile.item.title, classes: ["album-title"])
        artistLabel = Gtk.label(tile.item.artist, classes: ["dim-label", "caption"])
        signalLabel = Gtk.label(signalTitle ?? tile.item.signal.title, classes: ["dim-label", "caption"])
        for label in [titleLabel, artistLabel, signalLabel] {
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(crate_label(label), 16)
            gtk_label_set_width_chars(crate_label(label), 16)
        }
        // The clamp holds the tile's natural width to the art's size: a picture's natural width is
        // its image's, and the flow box would otherwise lay out two huge columns.
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), Self.artworkSize)
        adw_clamp_set_tightening_threshold(crate_clamp(clamp), Self.artworkSize)
        adw_clamp_set_child(crate_clamp(clamp), artwork)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        Gtk.append(widget, clamp)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, artistLabel)
        Gtk.append(widget, signalLabel)
        labelButtons()

        let scope = GObjectScope.of(widget)
        scope.connect(heart, "clicked") { [weak self] in
            guard let self else { return }
            self.onRate?(WallStore.album(of: self.tile), self.rating == .favourite ? nil : .favourite)
        }
        scope.connect(cross, "clicked") { [weak self] in
            guard let self else { return }
            self.onRate?(WallStore.album(of: self.tile), self.rating == .dislike ? nil : .dislike)
        }
        show(artwork: tile)
    }

    /// Shows another album in this place, or the same album's new details (its art arrived):
    /// only the labels and the art that differ are set.
    func show(_ next: WallTile, signalTitle nextSignal: String? = nil) {
        let previous = tile
        tile = next
        signalTitle = nextSignal
        if next.item.title != previous.item.title { Gtk.setText(titleLabel, next.item.title) }
        if next.item.artist != previous.item.artist { Gtk.setText(artistLabel, next.item.artist) }
        Gtk.setText(signalLabel, nextSignal ?? next.item.signal.title)
        if next.item.title != previous.item.title || next.item.artist != previous.item.artist { labelButtons() }
        if next.item.releaseGroupID != previous.item.releaseGroupID, shownArtwork != nil, !Self.hasArtwork(next) {
            // Another album without art yet: the gray square, not the last album's cover.
            shownArtwork = nil
            gtk_picture_set_paintable(crate_picture(picture), nil)
            gtk_widget_add_css_class(picture, "artwork-missing")
        }
        show(artwork: next)
    }

    private func labelButtons() {
        Gtk.setAccessibleLabel(widget, L10n.tr("%@ by %@", tile.item.title, tile.item.artist))
        Gtk.setAccessibleLabel(heart, L10n.tr("Favourite %@", tile.item.title))
        Gtk.setAccessibleLabel(cross, L10n.tr("Never show %@ again", tile.item.title))
    }

    private static func hasArtwork(_ tile: WallTile) -> Bool {
        tile.artworkStatus == .available && tile.artworkPath != nil
    }

    /// Shows the tile's art once it is in the cache (it often arrives after the tile is shown).
    func show(artwork tile: WallTile) {
        guard tile.artworkStatus == .available,
              let path = ArtworkCache.url(forStoredPath: tile.artworkPath, in: TextureCache.artworkDirectory)?.path,
              path != shownArtwork else { return }
        shownArtwork = path
        TextureCache.thumbnails.texture(for: path) { [weak self] texture in
            guard let self, self.shownArtwork == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.picture), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.picture, "artwork-missing")
            StartupTiming.mark("first wall art visible")
            StartupTiming.markAtNextFrame("first wall art drawn")
        }
    }

    /// Shows the album's heart or ✕ as pressed.
    func show(rating: AlbumRating?) {
        self.rating = rating
        for (button, on) in [(heart, rating == .favourite), (cross, rating == .dislike)] {
            if on { gtk_widget_add_css_class(button, "suggested-action") } else { gtk_widget_remove_css_class(button, "suggested-action") }
        }
    }
}
