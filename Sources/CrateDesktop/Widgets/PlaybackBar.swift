import CGtk
import CrateCore
import Foundation

/// The playback bar along the bottom: artwork, album and track, progress, previous / play-pause
/// / next / stop. Bound to PlaybackStore; buttons fire the `player.*` actions.
@MainActor
final class PlaybackBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let thumbnail: UnsafeMutablePointer<GtkWidget>
    private let titles: BarTitles
    private let playButton: UnsafeMutablePointer<GtkWidget>
    private var tokens: [ObservationToken] = []
    private var shownArtwork: String?
    /// The time text last shown (UI tests follow it to see the bar advance).
    private var shownTime = ""

    init(store: PlaybackStore) {
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        let bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, classes: ["playback-bar"])
        thumbnail = gtk_picture_new()!
        gtk_widget_set_size_request(thumbnail, 48, 48)
        gtk_picture_set_content_fit(crate_picture(thumbnail), GTK_CONTENT_FIT_COVER)
        gtk_widget_add_css_class(thumbnail, "artwork-missing")
        titles = BarTitles(progressName: L10n.tr("Track progress"))
        let previous = Gtk.iconButton("media-skip-backward-symbolic", label: L10n.tr("Previous track (Ctrl+←)"), action: "player.previous")
        playButton = Gtk.iconButton("media-playback-start-symbolic", label: L10n.tr("Play (Space)"), action: "player.toggle-play")
        let next = Gtk.iconButton("media-skip-forward-symbolic", label: L10n.tr("Next track (Ctrl+→)"), action: "player.next")
        let stop = Gtk.iconButton("media-playback-stop-symbolic", label: L10n.tr("Stop (Ctrl+.)"), action: "player.stop")
        for child in [thumbnail, titles.widget, previous, playButton, next, stop] { Gtk.append(bar, child) }
        gtk_revealer_set_child(crate_revealer(widget), bar)

        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
    }

    /// Called whenever the line under the album changes (the track, or a problem with it).
    var onTrackText: ((String) -> Void)?
    private var shownTrackText: String?

    private func render(_ state: PlaybackState) {
        let active = state.status != .stopped || state.isPreparingQueue
        gtk_revealer_set_reveal_child(crate_revealer(widget), active ? 1 : 0)
        guard let album = state.nowPlayingAlbum else {
            Gtk.setText(titles.titleLabel, state.isPreparingQueue ? L10n.tr("Preparing the queue…") : "")
            Gtk.setText(titles.trackLabel, state.message ?? "")
            return
        }
        // A request refused for another album is said in its pane and the banner, not under this one.
        let message = state.refusedAlbumID == nil ? state.message : nil
        let trackText = message ?? state.nowPlayingTrack.map { L10n.tr("%@. %@", $0.disc > 1 ? String($0.disc) + "." + String($0.position) : String($0.position), $0.title) } ?? ""
        let fraction = state.durationMs > 0 ? Double(state.positionMs) / Double(state.durationMs) : 0
        let time = "\(TrackListView.format(state.positionMs).ifEmpty("0:00")) / \(TrackListView.format(state.durationMs))"
        titles.show(title: L10n.tr("%@ — %@", album.title, album.artist), track: trackText, fraction: fraction, time: time)
        if trackText != shownTrackText {
            shownTrackText = trackText
            onTrackText?(trackText)
        }
        if WidgetEvents.isObserved, time != shownTime { WidgetEvents.say("bar-time \(time) fraction=\(String(format: "%.3f", fraction))") }
        shownTime = time
        let playing = state.status == .playing
        gtk_button_set_icon_name(crate_button(playButton), playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        Gtk.setAccessibleLabel(playButton, playing ? L10n.tr("Pause (Space)") : L10n.tr("Play (Space)"))
        Gtk.setTooltip(playButton, playing ? L10n.tr("Pause (Space)") : L10n.tr("Play (Space)"))
        let path = album.artworkStatus == .available ? album.thumbnailURL(in: TextureCache.artworkDirectory)?.path : nil
        if path != shownArtwork {
            shownArtwork = path
            AccentStyle.apply(thumbnailPath: path, to: .playing)
            gtk_picture_set_paintable(crate_picture(thumbnail), nil)
            if let path {
                TextureCache.thumbnails.texture(for: path) { [weak self] texture in
                    guard let self, self.shownArtwork == path, let texture else { return }
                    gtk_picture_set_paintable(crate_picture(self.thumbnail), crate_paintable(UnsafeMutableRawPointer(texture)))
                }
            }
        }
    }
}

private extension String {
    func ifEmpty(_ fallback: String) -> String { isEmpty ? fallback : self }
}
