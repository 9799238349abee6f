import CGtk
import CrateCore

extension MainWindow {
    /// Store → widget subscriptions and widget → intent wiring.
    func bindStores(pane: AlbumDetailPane) -> [ObservationToken] {
        var tokens: [ObservationToken] = []
        guard let library, let history, let detail else { return tokens }
        library.state.subscribe(initial: true) { [weak self] state in
            self?.renderLibrary(state)
        }.store(in: &tokens)
        history.state.subscribe(initial: true) { [weak self] state in
            self?.renderHistory(state)
        }.store(in: &tokens)
        historyList.onNearEnd = { [weak history] in
            guard let history else { return }
            Task { await history.loadMore() }
        }
        // An album to show (picked in the grid, or just scanned) opens the pane; none closes it.
        var shownAlbumID: Int64?
        detail.state.subscribe(initial: true) { [weak self] state in
            guard let self, state.album?.id != shownAlbumID else { return }
            shownAlbumID = state.album?.id
            if shownAlbumID != nil { self.browser.showDetail() } else { self.browser.showGrid() }
        }.store(in: &tokens)
        grid.onSelect = { [weak library, weak detail, weak self] id in
            self?.detailPane?.candidates.show([])  // Candidates belong to the scan just made.
            library?.select(albumID: id)
            Task { await detail?.show(albumID: id) }
        }
        GObjectScope.of(widget).connect(searchEntry, "search-changed") { [weak self, weak library] in
            guard let self, let library, let text = gtk_editable_get_text(crate_editable(self.searchEntry)) else { return }
            let query = String(cString: text)
            Task { await library.search(query) }
        }
        return tokens
    }

    /// Deletes the selected history scan with a 5-second Undo toast.
    func deleteSelectedScan() {
        guard let history, let id = historyList.selectedScanID else { return }
        Task {
            await history.delete(scanID: id)
            guard let removed = history.state.value.undoableDeletion else { return }
            toast.show("Deleted scan of “\(removed.album.title)”", onUndo: {
                Task { await history.undoDelete() }
            }, onExpire: {
                history.commitDeletion()
            })
        }
    }
}
