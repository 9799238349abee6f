import CGtk
import CrateCore

/// Playback from the window: the `player.*` actions, their keys, the bar, and play buttons in
/// the grid, the detail pane and the track list.
extension MainWindow {
    /// `simulated`: the player is the log-backed stand-in (no sound); the pane says so.
    func attachPlayback(_ store: PlaybackStore, simulated: Bool = false) {
        playback = store
        let bar = PlaybackBar(store: store)
        playbackBar = bar
        Gtk.append(contentBox, bar.widget)

        let group = g_simple_action_group_new()!
        let map = UnsafeMutableRawPointer(group)
        Actions.add(to: map, "toggle-play") { [weak store] in Task { await store?.togglePlay() } }
        Actions.add(to: map, "next") { [weak store] in Task { await store?.next() } }
        Actions.add(to: map, "previous") { [weak store] in Task { await store?.previous() } }
        Actions.add(to: map, "stop") { [weak store] in Task { await store?.stop() } }
        gtk_widget_insert_action_group(widget, "player", OpaquePointer(group))
        g_object_unref(map)
        // The keys (Actions.playerShortcuts) are the window's own: see WindowKeys.

        // "No track list for this album" and other playback problems slide in like scan errors.
        var lastMessage: String?
        let notInFolder = AudioPlaybackError.notInMusicFolder(albumID: 0).message
        store.state.subscribe { [weak self] state in
            if let message = state.message, message != lastMessage {
                self?.errorBanner.show(message)
                // An album with no files says so where the user pressed Play, too.
                if message == notInFolder { self?.detailPane?.showPlaybackNote(message, albumID: self?.lastPlayedAlbumID) }
            }
            lastMessage = state.message
        }.store(in: &tokens)

        grid.onPlay = { [weak self] id in self?.play(albumID: id, track: nil) }
        detailPane?.onPlay = { [weak self] id, track in self?.play(albumID: id, track: track) }
        detailPane?.onToggle = { [weak store] in Task { await store?.togglePlay() } }
        // What plays now is marked in the grid, the pane and the track list.
        store.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.detailPane?.setPlayback(state, simulated: simulated)
            let id = state.status == .stopped ? nil : state.nowPlayingAlbum?.id
            self.grid.setNowPlaying(albumID: id, playing: state.status == .playing)
        }.store(in: &tokens)
    }

    /// Plays an album (optionally from a track); the albums after it in the grid follow.
    func play(albumID: Int64, track: Int?) {
        guard let playback else { return }
        lastPlayedAlbumID = albumID
        detailPane?.showPlaybackNote(nil, albumID: nil)
        // The albums after it in the grid (a page's worth: the queue grows from there as it plays).
        let order = grid.cachedPosition(of: albumID).map { grid.albumIDs(from: $0, limit: 500) } ?? []
        let context = GridContext(albumIDs: order, tapped: albumID) ?? .single(albumID)
        Task {
            if let track {
                await playback.play(trackAt: track, ofAlbum: albumID, grid: context)
            } else {
                await playback.play(albumID: albumID, grid: context)
            }
        }
    }
}
