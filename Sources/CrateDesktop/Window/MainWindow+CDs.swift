import CGtk
import CrateCore

extension MainWindow {
    /// Adds the CD Wallet page (view switcher, Ctrl+D) and the Diagnostics window (main menu,
    /// the wallet's button, Ctrl+Shift+D). A disc plays through the playback store with the
    /// wallet's later discs after it; `playerText` and `mprisText` fill Diagnostics' playback lines.
    func attachCDs(_ store: CDsStore, playerText: String, mprisText: @escaping @MainActor () -> String) {
        let page = CDsPage()
        // The page and the store live as long as the page's widget.
        GObjectScope.of(page.widget).keepAlive(page)
        GObjectScope.of(page.widget).keepAlive(store)
        let stackPage = adw_view_stack_add_titled(crate_view_stack(mainStack), page.widget, "cds", L10n.tr("CDs"))
        adw_view_stack_page_set_icon_name(stackPage, "media-optical-cd-audio-symbolic")

        page.onPlay = { [weak self, weak store] id in
            guard let self, let store, let playback = self.playback else { return }
            TestEvents.note("cds-play \(id)")
            self.lastPlayedAlbumID = id
            let grid = GridContext(albumIDs: store.playableAlbumIDs, tapped: id) ?? .single(id)
            Task { await playback.play(albumID: id, grid: grid) }
        }
        page.onAdd = { [weak store] discID in
            guard let store else { return }
            TestEvents.note("cds-add")
            Task { await store.addToCrate(discID: discID) }
        }
        var shownMessage: String?
        store.state.subscribe { [weak self] state in
            if let message = state.message, message != shownMessage { self?.toasts.show(message, seconds: 4) }
            shownMessage = state.message
        }.store(in: &tokens)
        weak var openDiagnostics: DiagnosticsPage?
        let showDiagnostics: @MainActor () -> Void = { [weak self, weak store] in
            guard let self, let store else { return }
            if let openDiagnostics {
                openDiagnostics.present(over: self.widget)
            } else {
                let diagnostics = DiagnosticsPage(store: store)
                diagnostics.playerText = { playerText }
                diagnostics.mprisText = mprisText
                diagnostics.watchText = { [weak self] in self?.musicFolders?.status.value?.sentence }
                openDiagnostics = diagnostics
                diagnostics.present(over: self.widget)
            }
            // Playlist files are not in the database: read them again.
            if store.isStarted { Task { await store.reload() } } else { store.start() }
        }
        page.onDiagnostics = showDiagnostics
        Actions.add(to: widget, "show-cds") { [weak self] in self?.showPage("cds") }
        Actions.add(to: widget, "show-diagnostics") { showDiagnostics() }

        store.state.subscribe(initial: true) { [weak self] state in
            page.render(state)
            guard let self, TestEvents.isEnabled, state.phase == .loaded else { return }
            if let first = page.playButtons.first {
                TestEvents.reportPoint("cds-play", of: first.button, in: self.widget)
            }
        }.store(in: &tokens)
        // The wallet and the diagnostics compare every crate album with the music index: built
        // when the page (or Diagnostics) is first shown, not at start.
        GObjectScope.of(page.widget).connect(page.widget, "map") { [weak store] in store?.start() }
        if TestEvents.isEnabled {
            GObjectScope.of(page.widget).connect(page.widget, "map") { [weak self] in
                guard let self else { return }
                TestEvents.note("cds page mapped")
                TestEvents.reportMinimumWidths([("cds-page", page.widget)])
                if let first = page.playButtons.first { TestEvents.reportPoint("cds-play", of: first.button, in: self.widget) }
            }
        }
        // The disc playing now is marked, as the grid marks its album.
        playback?.state.subscribe(initial: true) { state in
            let id = state.status == .stopped ? nil : state.nowPlayingAlbum?.id
            page.setNowPlaying(albumID: id, playing: state.status == .playing)
        }.store(in: &tokens)
    }
}
