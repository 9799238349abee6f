import CGtk
import CrateCore

extension MainWindow {
    /// Context menus on grid cells, history rows and tracks, all built from the window's actions.
    func installContextMenus() {
        grid.onContextMenu = { summary, widget, point in
            let album = summary.album
            var links: [ContextMenu.Item] = [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(album.artist) – \(album.title)"))]
            if let page = album.musicBrainzPage {
                links.append(.init(label: L10n.tr("Open in _MusicBrainz"), action: "win.open-uri", target: .text(page.absoluteString)))
            }
            ContextMenu.present([
                [.init(label: L10n.tr("_Play"), action: "win.album-play", target: .id(summary.id)),
                 .init(label: L10n.tr("_Open Album"), action: "win.album-open", target: .id(summary.id)),
                 .init(label: L10n.tr("Show in _History"), action: "win.album-history", target: .id(summary.id)),
                 .init(label: L10n.tr("Show _Artist"), action: "win.album-artist", target: .id(summary.id))],
                [.init(label: L10n.tr("_Not This Album?"), action: "win.album-not-this", target: .id(summary.id))],
                links,
                [.init(label: L10n.tr("_Remove from Crate"), action: "win.album-remove", target: .id(summary.id))],
            ], on: widget, at: point, name: "album \(summary.id)")
        }
        historyList.onContextMenu = { entry, widget, point in
            guard let albumID = entry.album.id else { return }
            ContextMenu.present([
                [.init(label: L10n.tr("_Open Album"), action: "win.album-open", target: .id(albumID)),
                 .init(label: L10n.tr("_Play Album"), action: "win.album-play", target: .id(albumID))],
                [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(entry.album.artist) – \(entry.album.title)"))]
                    + (entry.album.musicBrainzPage.map { [ContextMenu.Item(label: L10n.tr("Open in _MusicBrainz"), action: "win.open-uri", target: .text($0.absoluteString))] } ?? []),
                [.init(label: L10n.tr("_Delete Scan"), action: "win.scan-delete", target: .id(entry.id))],
            ], on: widget, at: point, name: "scan \(entry.id)")
        }
        detailPane?.onTrackMenu = { album, index, track, widget, point in
            ContextMenu.present([
                [.init(label: L10n.tr("_Play from Here"), action: "win.track-play", target: .id(Int64(index)))],
                [.init(label: L10n.tr("_Copy Artist – Title"), action: "win.copy-text", target: .text("\(album.artist) – \(track.title)"))],
            ], on: widget, at: point, name: "track \(index)")
        }
    }

    /// Shows an album in the crate page: selected in the grid when it is there, its pane open.
    func openAlbum(_ id: Int64) {
        showPage("crate")
        library?.select(albumID: id)
        grid.select(albumID: id)
        guard let detail else { return }
        Task { await detail.show(albumID: id) }
    }

    /// "Not this album?" from an album's menu: the album opens with the runners-up of its newest
    /// scan; a pick switches that scan to it (the wrong album leaves the crate when nothing else
    /// holds it), as the list under a scan just made does.
    func reconsiderAlbum(_ id: Int64) {
        openAlbum(id)
        guard let model else { return }
        Task { [weak self] in
            let found = await model.reconsideration(albumID: id)
            guard let self else { return }
            guard let (entry, candidates) = found else {
                self.toasts.show(L10n.tr("This album was not scanned: there is nothing else to choose"), seconds: 4)
                return
            }
            guard !candidates.isEmpty else {
                self.toasts.show(L10n.tr("No other albums were found for its scan"), seconds: 4)
                return
            }
            if TestEvents.isEnabled { TestEvents.note("reconsider \(id) scan=\(entry.id) candidates=\(candidates.count)") }
            self.detailPane?.candidates.reconsider(candidates) { [weak self] album in
                self?.scanStore?.choose(album, replacing: entry)
            }
        }
    }

    /// History with the album's newest scan selected.
    /// Opens the artist page of an album in the crate (from its context menu).
    func showArtist(ofAlbum id: Int64) {
        guard let model else { return }
        Task { [weak self] in
            guard let album = await model.album(id: id), let self else { return }
            self.openArtist(name: album.artist, releaseGroup: MBID(validating: album.musicBrainzReleaseGroupID))
        }
    }

    func showAlbumInHistory(_ id: Int64) {
        showPage("history")
        guard let model else { return }
        Task { [weak self] in
            guard let scanID = await model.newestScanID(albumID: id), let self else {
                self?.toasts.show(L10n.tr("This album has no scan in History"), seconds: 4)
                return
            }
            if let position = self.historyList.position(ofScan: scanID) {
                self.historyList.select(position: position)
                self.historyList.scroll(to: position)
            }
            if TestEvents.isEnabled {
                // Once laid out: every thumbnail one square, whatever the cover's shape.
                GObjectScope.of(self.widget).after(seconds: 1) { [weak self] in
                    guard let self else { return }
                    TestEvents.note("history-thumbnails " + self.historyList.thumbnailSizes().joined(separator: " "))
                }
            }
            if TestEvents.isEnabled { TestEvents.note("history-shows-scan \(scanID) at \(self.historyList.position(ofScan: scanID).map(String.init) ?? "none")") }
        }
    }

    /// Deletes one history scan (with the Undo toast), as Delete does on the selected row.
    func deleteScan(_ id: Int64) {
        guard let position = historyList.position(ofScan: id) else { return }
        historyList.select(position: position)
        deleteSelectedScan()
    }

    /// Puts text on the clipboard and says so.
    func copyText(_ text: String) {
        let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
        gdk_clipboard_set_text(clipboard, text)
        if TestEvents.isEnabled { TestEvents.note("copied \(text)") }
        toasts.show(L10n.tr("Copied “%@”", text), seconds: 2)
    }

    /// "Remove from Crate": the album leaves the crate (with its scans, tracks, …) and a toast
    /// offers Undo, which puts it all back; Ctrl+Z does the same while the toast is up.
    func removeAlbum(_ id: Int64) {
        guard let library else { return }
        Task { [weak self] in
            guard let removed = await library.remove(albumID: id) else {
                if let message = library.state.value.errorMessage { self?.toasts.show(message, seconds: 5) }
                return
            }
            guard let self else { return }
            if self.detail?.state.value.album?.id == id { await self.detail?.show(albumID: nil) }
            if TestEvents.isEnabled { TestEvents.note("album-removed \(id)") }
            var undone = false
            self.removalToast?.dismiss()
            self.lastUndoable = .albumRemoval
            self.removalToast = self.toasts.show(L10n.tr("Removed “%@”", removed.title), button: L10n.tr("_Undo"), action: { [weak self] in
                undone = true
                self?.undoRemoval(of: removed)
            }, onDismiss: { [weak library] in
                // Only this toast's removal: a later one has its own toast.
                if !undone { library?.commitRemoval(removed) }
            })
        }
    }

    /// Undo of "Remove from Crate": the album is back, selected in the grid.
    func undoRemoval(of removed: RemovedAlbum) {
        guard let library else { return }
        Task { [weak self] in
            let back = await library.undoRemoval(removed)
            guard let self else { return }
            if back {
                self.grid.select(albumID: removed.albumID)
                if TestEvents.isEnabled { TestEvents.note("album-restored \(removed.albumID)") }
            } else if let message = library.state.value.errorMessage {
                self.toasts.show(message, seconds: 6)
            }
        }
    }

    /// Ctrl+Z: undoes the newer of the last history delete and the last album removal.
    func undoLast() {
        if lastUndoable == .albumRemoval, let removed = library?.state.value.undoableRemoval {
            lastUndoable = nil
            undoRemoval(of: removed)
            removalToast?.dismiss()
            removalToast = nil
            return
        }
        undoLastDeletion()
    }

    /// Opens a web page (Open in MusicBrainz) in the default browser.
    func openURI(_ uri: String) {
        if TestEvents.isEnabled { TestEvents.emit("open-uri \(uri)") }
        gtk_show_uri(crate_window(widget), uri, 0)  // GDK_CURRENT_TIME
    }
}
