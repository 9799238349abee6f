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
        historyList.onRetry = { [weak self] photo in
            guard let model = self?.model else { return }
            Task { await model.retry(unscannedPhotoIDs: [photo.id]) }
        }
        historyList.onRemove = { [weak history] photo in
            guard let history else { return }
            Task { await history.remove(unscannedPhotoID: photo.id) }
        }
        // An album to show (picked in the grid, or just scanned) opens the pane; none closes it.
        var shownAlbumID: Int64?
        detail.state.subscribe(initial: true) { [weak self] state in
            guard let self, state.album?.id != shownAlbumID else { return }
            shownAlbumID = state.album?.id
            if shownAlbumID != nil { self.browser.showDetail() } else { self.browser.showGrid() }
        }.store(in: &tokens)
        grid.fetchPage = { [weak library] listing, offset, limit in
            library?.page(of: listing, offset: offset, limit: limit) ?? []
        }
        grid.onSelect = { [weak library, weak detail, weak self] id in
            self?.detailPane?.candidates.show([])  // Candidates belong to the scan just made.
            library?.select(albumID: id)
            Task { await detail?.show(albumID: id) }
        }
        GObjectScope.of(widget).connect(searchEntry, "search-changed") { [weak self, weak library] in
            guard let self, let library, let text = gtk_editable_get_text(crate_editable(self.searchEntry)) else { return }
            let query = String(cString: text)
            TestEvents.note("search-text \(query)")
            Task { await library.search(query) }
        }
        return tokens
    }

    /// Deletes the selected history scan with an Undo toast (a photo without a scan is simply
    /// removed). The selection stays at the same place: on the row that took the deleted one's.
    func deleteSelectedScan() {
        guard let history else { return }
        let position = historyList.selectedPosition
        if let photo = historyList.selectedUnscanned {
            Task {
                await history.remove(unscannedPhotoID: photo.id)
                if let position { historyList.select(position: position) }
            }
            return
        }
        guard let id = historyList.selectedScanID else { return }
        Task {
            await history.delete(scanID: id)
            guard let removed = history.state.value.undoableDeletion, removed.id == id else { return }
            if let position { historyList.select(position: position) }
            var undone = false
            undoToast?.dismiss()
            lastUndoable = .scanDeletion
            undoToast = toasts.show(L10n.tr("Deleted scan of “%@”", removed.album.title), button: L10n.tr("_Undo"), action: { [weak self] in
                undone = true
                self?.undoDeletion(of: removed)
            }, onDismiss: {
                // Only this toast's deletion: a later delete has its own toast.
                if !undone, history.state.value.undoableDeletion?.id == id { history.commitDeletion() }
            })
        }
    }

    /// Ctrl+Z: undoes the last history delete while its toast is up.
    func undoLastDeletion() {
        guard let entry = history?.state.value.undoableDeletion else { return }
        undoDeletion(of: entry)
        undoToast?.dismiss()
        undoToast = nil
    }

    /// Undo of a history delete: the scan comes back, selected where it was.
    func undoDeletion(of entry: HistoryEntry) {
        guard let history else { return }
        Task {
            await history.undoDelete(entry)
            renderHistory(history.state.value)
            if let index = historyList.position(ofScan: entry.id) { historyList.select(position: index) }
        }
    }
}
