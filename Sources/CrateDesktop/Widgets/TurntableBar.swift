import CGtk
import CrateCore
import Foundation

/// The bar along the bottom while a record spins on the user's turntable: the album, the side and
/// the track the needle is on, its progress, pause / next track / stop and, at a side's end,
/// "Play Side B" once the record is turned over. Bound to TurntableStore; buttons fire the
/// `turntable.*` actions. Nothing plays through the speakers, and the bar says so.
@MainActor
final class TurntableBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let titles: BarTitles
    private let playButton: UnsafeMutablePointer<GtkWidget>
    private let nextButton: UnsafeMutablePointer<GtkWidget>
    let flipButton: UnsafeMutablePointer<GtkWidget>
    private var tokens: [ObservationToken] = []
    /// Called with the line under the album whenever it changes (UI tests follow it).
    var onTrackText: ((String) -> Void)?
    private var shownTrackText: String?

    init(store: TurntableStore) {
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        let bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, classes: ["playback-bar", "turntable-bar"])
        let icon = gtk_image_new_from_icon_name("media-optical-symbolic")!
        gtk_image_set_pixel_size(crate_image(icon), 32)
        Gtk.setTooltip(icon, L10n.tr("On your turntable: Crate follows the record and plays nothing"))
        titles = BarTitles(progressName: L10n.tr("Track progress on the turntable"))
        playButton = Gtk.iconButton("media-playback-pause-symbolic", label: L10n.tr("Pause the record"), action: "turntable.toggle-play")
        nextButton = Gtk.iconButton("media-skip-forward-symbolic", label: L10n.tr("Next track on the record"), action: "turntable.skip")
        flipButton = gtk_button_new_with_label("")!
        gtk_actionable_set_action_name(crate_actionable(flipButton), "turntable.flip")
        gtk_widget_add_css_class(flipButton, "suggested-action")
        gtk_widget_set_valign(flipButton, GTK_ALIGN_CENTER)
        let stop = Gtk.iconButton("media-playback-stop-symbolic", label: L10n.tr("Take the record off (stop following it)"), action: "turntable.stop")
        for child in [icon, titles.widget, playButton, nextButton, flipButton, stop] { Gtk.append(bar, child) }
        gtk_revealer_set_child(crate_revealer(widget), bar)
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
    }

    private func render(_ state: TurntableStore.State) {
        gtk_revealer_set_reveal_child(crate_revealer(widget), state.isActive ? 1 : 0)
        guard let album = state.album else { return }
        let trackText: String
        switch state.phase {
        case .sideOver:
            trackText = L10n.tr("Side %@ is over. Turn the record over, then play side %@.", state.side ?? "", state.nextSide ?? "")
        case .finished:
            trackText = L10n.tr("The record is over.")
        case .playing, .paused, .idle:
            let number = state.track.map { $0.number ?? String($0.position) } ?? ""
            let title = state.track?.title ?? ""
            trackText = L10n.tr("Side %@ · %@. %@", state.side ?? "", number, title)
        }
        let fraction = state.durationMs > 0 ? Double(state.positionMs) / Double(state.durationMs) : 0
        let position = state.positionMs < 1_000 ? "0:00" : TrackListView.format(state.positionMs)
        let time = state.track == nil ? "" : L10n.tr("%@ / %@", position, TrackListView.format(state.durationMs))
        titles.show(title: L10n.tr("%@ — %@", album.title, album.artist), track: trackText, fraction: fraction, time: time)
        // The side's end says what to do in a sentence that may not fit: all of it on hover.
        Gtk.setTooltip(titles.trackLabel, trackText)
        if trackText != shownTrackText {
            shownTrackText = trackText
            onTrackText?(trackText)
        }
        let playing = state.phase == .playing
        gtk_button_set_icon_name(crate_button(playButton), playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let playLabel = playing ? L10n.tr("Pause the record") : L10n.tr("Carry on following the record")
        Gtk.setAccessibleLabel(playButton, playLabel)
        Gtk.setTooltip(playButton, playLabel)
        let needleDown = state.phase == .playing || state.phase == .paused
        gtk_widget_set_visible(playButton, needleDown ? 1 : 0)
        gtk_widget_set_visible(nextButton, needleDown ? 1 : 0)
        gtk_widget_set_visible(flipButton, state.phase == .sideOver ? 1 : 0)
        gtk_button_set_label(crate_button(flipButton), L10n.tr("Play Side %@", state.nextSide ?? ""))
    }
}
