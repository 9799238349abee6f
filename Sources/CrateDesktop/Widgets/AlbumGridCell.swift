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
    private(set) var boundID: Int64?
    /// The album shown (its context menu acts on it).
    private(set) var boundSummary: AlbumSummary?
    /// "Now playing" badge over the artwork's top-left corner.
    private let nowPlayingBadge: UnsafeMutablePointer<GtkWidget>
    var onPlay: ((Int64) -> Void)?
    /// Called each time the cell puts artwork on screen (the grid times the first one).
    var onCoverShown: (() -> Void)?
    /// Heart and ✕ over the artwork's bottom-left corner (albums with a MusicBrainz release group).
    private let heart: UnsafeMutablePointer<GtkWidget>
    private let cross: UnsafeMutablePointer<GtkWidget>
    private let ratingButtons: UnsafeMutablePointer<GtkWidget>
    private(set) var boundAlbum: RatedAlbum?
    private var rating: AlbumRating?
    /// Heart, ✕ or clear (pressing the pressed one) for the bound album.
    var onRate: ((RatedAlbum, AlbumRating?) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4, classes: ["album-cell"])
        // The artwork sits in a fixed square: the square is the overlay's main child (the only
        // one it measures) and the picture an overlay over it, so a wide or tall cover is fitted
        // inside, letterboxed, and never makes its row taller or its column wider than the rest.
        let square = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["album-square"])
        gtk_widget_set_size_request(square, Self.artworkSize, Self.artworkSize)
        gtk_widget_set_halign(square, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(square, 0)
        gtk_widget_set_vexpand(square, 0)
        picture = gtk_picture_new()!
        gtk_picture_set_can_shrink(crate_picture(picture), 1)
        gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_CONTAIN)
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
        gtk_overlay_set_child(crate_overlay(artwork), square)
        gtk_overlay_add_overlay(crate_overlay(artwork), picture)
        gtk_widget_set_halign(artwork, GTK_ALIGN_CENTER)
        let play = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        gtk_widget_add_css_class(play, "grid-play")
        gtk_widget_add_css_class(play, "circular")
        gtk_widget_set_halign(play, GTK_ALIGN_END)
        gtk_widget_set_valign(play, GTK_ALIGN_END)
        gtk_widget_set_margin_end(play, 8)
        gtk_widget_set_margin_bottom(play, 8)
        Gtk.setTooltip(play, L10n.tr("Play"))
        gtk_overlay_add_overlay(crate_overlay(artwork), play)
        nowPlayingBadge = gtk_image_new_from_icon_name("audio-volume-high-symbolic")!
        gtk_widget_add_css_class(nowPlayingBadge, "now-playing-badge")
        gtk_widget_set_halign(nowPlayingBadge, GTK_ALIGN_START)
        gtk_widget_set_valign(nowPlayingBadge, GTK_ALIGN_START)
        gtk_widget_set_margin_start(nowPlayingBadge, 8)
        gtk_widget_set_margin_top(nowPlayingBadge, 8)
        gtk_widget_set_visible(nowPlayingBadge, 0)
        gtk_overlay_add_overlay(crate_overlay(artwork), nowPlayingBadge)
        heart = Gtk.iconButton("emblem-favorite-symbolic", label: L10n.tr("Favourite"))
        cross = Gtk.iconButton("window-close-symbolic", label: L10n.tr("Not for me"))
        Gtk.setTooltip(heart, L10n.tr("Favourite"))
        Gtk.setTooltip(cross, L10n.tr("Not for me"))
        ratingButtons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 4)
        for button in [heart, cross] {
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_add_css_class(button, "osd")
            gtk_widget_add_css_class(button, "grid-rate")
            // Pointer only, like the play button's place in the grid: the keyboard rates in the pane.
            gtk_widget_set_focusable(button, 0)
            gtk_widget_set_focus_on_click(button, 0)
            Gtk.append(ratingButtons, button)
        }
        gtk_widget_set_halign(ratingButtons, GTK_ALIGN_START)
        gtk_widget_set_valign(ratingButtons, GTK_ALIGN_END)
        gtk_widget_set_margin_start(ratingButtons, 8)
        gtk_widget_set_margin_bottom(ratingButtons, 8)
        gtk_overlay_add_overlay(crate_overlay(artwork), ratingButtons)
        let scope = GObjectScope.of(widget)
        scope.connect(play, "clicked") { [weak self] in
            guard let self, let id = self.boundID else { return }
            self.onPlay?(id)
        }
        scope.connect(heart, "clicked") { [weak self] in
            guard let self, let album = self.boundAlbum else { return }
            self.onRate?(album, self.rating == .favourite ? nil : .favourite)
        }
        scope.connect(cross, "clicked") { [weak self] in
            guard let self, let album = self.boundAlbum else { return }
            self.onRate?(album, self.rating == .dislike ? nil : .dislike)
        }
        self.playButton = play
        Gtk.append(widget, artwork)
        Gtk.append(widget, titleLabel)
        Gtk.append(widget, artistLabel)
    }

    func show(_ summary: AlbumSummary, rating: AlbumRating?) {
        let album = summary.album
        boundAlbum = MBID(validating: album.musicBrainzReleaseGroupID).map {
            RatedAlbum(releaseGroupID: $0, title: album.title, artist: album.artist, releaseID: MBID(validating: album.musicBrainzReleaseID))
        }
        gtk_widget_set_visible(ratingButtons, boundAlbum == nil ? 0 : 1)
        show(rating: rating)
        Gtk.setText(titleLabel, summary.album.title)
        Gtk.setText(artistLabel, summary.album.artist)
        // Titles and artists are cut at the cell's width: the whole of both on hover.
        Gtk.setTooltip(widget, L10n.tr("%@ — %@", summary.album.title, summary.album.artist))
        Gtk.setAccessibleLabel(widget, L10n.tr("%@ by %@", summary.album.title, summary.album.artist))
        boundID = summary.album.id
        boundSummary = summary
        if let playButton { Gtk.setAccessibleLabel(playButton, L10n.tr("Play %@", summary.album.title)) }
        gtk_picture_set_paintable(crate_picture(picture), nil)
        gtk_widget_add_css_class(picture, "artwork-missing")
        boundPath = summary.album.thumbnailURL(in: TextureCache.artworkDirectory)?.path
        guard let path = boundPath else { return }
        TextureCache.thumbnails.texture(for: path) { [weak self] texture in
            // The cell may have been recycled for another album while the file loaded.
            guard let self, self.boundPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.picture), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.picture, "artwork-missing")
            self.onCoverShown?()
        }
    }

    /// Shows the bound album's heart or ✕ as pressed.
    func show(rating: AlbumRating?) {
        self.rating = rating
        for (button, on) in [(heart, rating == .favourite), (cross, rating == .dislike)] {
            if on { gtk_widget_add_css_class(button, "suggested-action") } else { gtk_widget_remove_css_class(button, "suggested-action") }
        }
        Gtk.setAccessibleLabel(heart, rating == .favourite ? L10n.tr("Remove from favourites") : L10n.tr("Favourite"))
    }

    /// Marks the cell as the album playing (or paused) now; nil unmarks it.
    func setNowPlaying(_ playing: Bool?) {
        gtk_widget_set_visible(nowPlayingBadge, playing == nil ? 0 : 1)
        gtk_image_set_from_icon_name(crate_image(nowPlayingBadge), playing == true ? "audio-volume-high-symbolic" : "media-playback-pause-symbolic")
        Gtk.setTooltip(nowPlayingBadge, playing == true ? L10n.tr("Playing") : L10n.tr("Paused"))
        if playing != nil { gtk_widget_add_css_class(widget, "now-playing") } else { gtk_widget_remove_css_class(widget, "now-playing") }
    }

    func clear() {
        boundPath = nil
        boundID = nil
        boundSummary = nil
        boundAlbum = nil
        gtk_picture_set_paintable(crate_picture(picture), nil)
    }
}
