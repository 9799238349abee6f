import CGtk
import CrateCore

/// The CD Wallet page (view switcher, Ctrl+D) and the Diagnostics window it leads to (main menu,
/// the wallet's button, Ctrl+Shift+D). A disc plays through the playback store with the wallet's
/// later discs after it.
@MainActor
final class CDsPageController {
    let page = CDsPage()
    let store: CDsStore
    /// Called with each state the page renders.
    var onRender: ((CDsState) -> Void)?
    private weak var host: MainWindow?
    private weak var openDiagnostics: DiagnosticsPage?
    private let playerText: String
    private let mprisText: @MainActor () -> String
    private var tokens: [ObservationToken] = []

    /// `playerText` and `mprisText` fill Diagnostics' playback lines.
    init(host: MainWindow, store: CDsStore, playback: PlaybackStore?, playerText: String, mprisText: @escaping @MainActor () -> String) {
        self.host = host
        self.store = store
        self.playerText = playerText
        self.mprisText = mprisText
        page.onPlay = { [weak self] id in self?.play(albumID: id) }
        page.onAdd = { [weak store] discID in
            guard let store else { return }
            Task { await store.addToCrate(discID: discID) }
        }
        page.onDiagnostics = { [weak self] in self?.showDiagnostics() }
        page.thumbnail = { [weak host] id in
            guard let album = await host?.model?.album(id: id), album.artworkStatus == .available else { return nil }
            return album.thumbnailURL(in: TextureCache.artworkDirectory)?.path
        }
        var shownMessage: String?
        store.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.page.render(state)
            if let message = state.message, message != shownMessage { self.host?.toasts.show(message, seconds: 4) }
            shownMessage = state.message
            self.onRender?(state)
        }.store(in: &tokens)
        // The wallet and the diagnostics compare every crate album with the music index: built
        // when the page (or Diagnostics) is first shown, not at start.
        GObjectScope.of(page.widget).connect(page.widget, "map") { [weak store] in store?.start() }
        // The disc playing now is marked, as the grid marks its album.
        playback?.state.subscribe(initial: true) { [weak self] state in
            let id = state.status == .stopped ? nil : state.nowPlayingAlbum?.id
            self?.page.setNowPlaying(albumID: id, playing: state.status == .playing)
        }.store(in: &tokens)
    }

    /// A disc's play button: the disc, then the wallet's later discs.
    func play(albumID id: Int64) {
        onPlayRequest?(id)
        host?.play(albumID: id, track: nil, after: store.playableAlbumIDs)
    }
    /// Called with the album id when a disc is asked to play.
    var onPlayRequest: ((Int64) -> Void)?

    func showDiagnostics() {
        guard let host else { return }
        if let openDiagnostics {
            openDiagnostics.present(over: host.widget)
        } else {
            let diagnostics = DiagnosticsPage(store: store)
            let playerText = playerText
            diagnostics.playerText = { playerText }
            diagnostics.mprisText = mprisText
            diagnostics.watchText = { [weak host] in host?.musicFolders?.status.value?.sentence }
            openDiagnostics = diagnostics
            diagnostics.present(over: host.widget)
        }
        // Playlist files are not in the database: read them again.
        if store.isStarted { Task { await store.reload() } } else { store.start() }
    }
}
