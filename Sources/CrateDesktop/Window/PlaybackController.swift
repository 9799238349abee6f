import CGtk
import CrateCore

/// Playback from the window: the `player.*` actions (their keys are the window's own, see
/// WindowKeys), the playback bar, and the play requests of every page.
@MainActor
final class PlaybackController {
    let store: PlaybackStore
    let bar: PlaybackBar
    /// Called with each playback problem shown, and with nil when the request it belonged to
    /// ended (a new play, Stop).
    var onProblem: ((String?) -> Void)?
    private weak var host: MainWindow?
    private var tokens: [ObservationToken] = []

    init(host: MainWindow, store: PlaybackStore) {
        self.host = host
        self.store = store
        bar = PlaybackBar(store: store)
        let group = g_simple_action_group_new()!
        let map = UnsafeMutableRawPointer(group)
        Actions.add(to: map, "toggle-play") { [weak store] in Task { await store?.togglePlay() } }
        Actions.add(to: map, "next") { [weak store] in Task { await store?.next() } }
        Actions.add(to: map, "previous") { [weak store] in Task { await store?.previous() } }
        Actions.add(to: map, "stop") { [weak store] in Task { await store?.stop() } }
        gtk_widget_insert_action_group(host.widget, "player", OpaquePointer(group))
        g_object_unref(map)
        // "No track list for this album" and other playback problems slide in like scan errors.
        var lastMessage: String?
        store.state.subscribe { [weak self] state in
            if let message = state.message, message != lastMessage {
                self?.host?.errorBanner.show(message)
                self?.onProblem?(message)
            } else if state.message == nil, lastMessage != nil {
                self?.onProblem?(nil)
            }
            lastMessage = state.message
        }.store(in: &tokens)
    }

    /// Plays an album (optionally from a track); `after` are the albums that follow it (the rest
    /// of the grid or the wallet), else the album plays alone.
    func play(albumID: Int64, track: TrackSlot?, after order: [Int64]) {
        let context = GridContext(albumIDs: order, tapped: albumID) ?? .single(albumID)
        Task { [store] in
            if let track {
                await store.play(track: track, ofAlbum: albumID, grid: context)
            } else {
                await store.play(albumID: albumID, grid: context)
            }
        }
    }

    func togglePlay() {
        Task { [store] in await store.togglePlay() }
    }
}
