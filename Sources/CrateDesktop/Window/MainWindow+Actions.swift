import CGtk
import CrateCore

/// The window's actions (`win.*`), Escape and Back, and the header's state.
extension MainWindow {
    func installActions() {
        Actions.add(to: widget, "close") { [weak self] in
            guard let self else { return }
            gtk_window_close(crate_window(self.widget))
        }
        Actions.add(to: widget, "show-history") { [weak self] in
            guard let self else { return }
            self.showPage(self.visiblePage == "history" ? "crate" : "history")
        }
        Actions.add(to: widget, "show-crate") { [weak self] in self?.showPage("crate") }
        Actions.add(to: widget, "search") { [weak self] in
            guard let self else { return }
            self.showPage("crate")
            gtk_search_bar_set_search_mode(crate_search_bar(self.searchBar), 1)
            gtk_widget_grab_focus(self.searchEntry)
        }
        Actions.add(to: widget, "delete-scan") { [weak self] in self?.history.deleteSelected() }
        Actions.add(to: widget, "undo") { [weak self] in self?.undoLast() }
        // Context menus (built by the pages from these actions).
        Actions.addID(to: widget, "album-play") { [weak self] id in self?.play(albumID: id, track: nil) }
        Actions.addID(to: widget, "album-open") { [weak self] id in self?.openAlbum(id) }
        Actions.addID(to: widget, "album-not-this") { [weak self] id in
            guard let self, let model = self.model else { return }
            self.showPage("crate")
            self.crate.reconsider(albumID: id, model: model, scans: self.scanning?.store)
        }
        Actions.addID(to: widget, "album-history") { [weak self] id in self?.showAlbumInHistory(id) }
        Actions.addID(to: widget, "album-artist") { [weak self] id in self?.showArtist(ofAlbum: id) }
        Actions.addID(to: widget, "album-remove") { [weak self] id in self?.removeAlbum(id) }
        Actions.addText(to: widget, "open-uri") { [weak self] uri in self?.openURI(uri) }
        Actions.addID(to: widget, "scan-delete") { [weak self] id in self?.history.delete(scanID: id) }
        Actions.addID(to: widget, "track-play") { [weak self] index in self?.crate.pane?.playTrack(at: Int(index)) }
        Actions.addText(to: widget, "copy-text") { [weak self] text in self?.copyText(text) }
    }

    /// Sort and reverse, starting from the order the library store kept from the last run.
    func installSortActions(_ library: LibraryStore) {
        let state = library.state.value
        Actions.addChoice(to: widget, "sort", initial: state.sort.rawValue) { [weak library] value in
            guard let sort = AlbumSort(rawValue: value), let library else { return }
            Task { await library.setSort(sort) }
        }
        Actions.addToggle(to: widget, "sort-reversed", initial: state.reversed) { [weak library] reversed in
            guard let library else { return }
            Task { await library.setReversed(reversed) }
        }
    }

    /// Escape, in order: cancel a running scan; the artist page; close the search; close the
    /// shown page's album pane (or genre feed). Returns false when there was nothing to close,
    /// so the key goes on to the focused widget.
    func escape() -> Bool {
        if let scanning, scanning.isBusy {
            scanning.cancel()
            return true
        }
        if artist?.back() == true { return true }
        if barcodeBar.isOpen {
            barcodeBar.close()
            crate.focus()
            return true
        }
        if gtk_search_bar_get_search_mode(crate_search_bar(searchBar)) != 0 {
            gtk_search_bar_set_search_mode(crate_search_bar(searchBar), 0)
            gtk_editable_set_text(crate_editable(searchEntry), "")
            crate.focus()
            return true
        }
        if visiblePage == "crate", crate.isShowingDetail {
            crate.closeDetail()
            return true
        }
        if visiblePage == "wall" { return wall.escape() }
        return false
    }

    /// The header's back button: the artist page's, else the shown page's album pane.
    func back() {
        if artist?.back() == true { return }
        if visiblePage == "wall" { wall.closeDetail() } else { crate.closeDetail() }
    }

    /// Where the pane has taken the grid's place, the header shows back instead of grid actions.
    func updateHeader() {
        let page = visiblePage
        // The artist page lies over the pages: while it is open only its own album counts.
        let albumOnly = artist?.isOpen == true ? artist?.showsAlbumOnly == true
            : (page == "crate" && crate.showsAlbumOnly) || (page == "wall" && wall.showsAlbumOnly)
        // Search and sort act on the crate: off on other pages, and on an empty crate (nothing
        // to search or sort) unless a search is already under way. The count is the crate's.
        header.update(albumOnly: albumOnly, gridActions: page == "crate" && crate.hasAlbums,
                      count: page == "crate" ? crate.countText ?? "" : nil)
    }

    // MARK: - Album commands (context menus)

    /// Shows an album in the crate page: selected in the grid when it is there, its pane open.
    func openAlbum(_ id: Int64) {
        showPage("crate")
        crate.open(albumID: id)
    }

    /// History with the album's newest scan selected.
    func showAlbumInHistory(_ id: Int64) {
        showPage("history")
        guard let model else { return }
        Task { [weak self] in
            let scanID = await model.newestScanID(albumID: id)
            guard let self else { return }
            guard let scanID else {
                self.toasts.show(L10n.tr("This album has no scan in History"), seconds: 4)
                return
            }
            self.history.reveal(scanID: scanID)
            self.onShowInHistory?(scanID)
        }
    }

    /// Opens the artist page of an album in the crate (from its context menu).
    func showArtist(ofAlbum id: Int64) {
        guard let model else { return }
        Task { [weak self] in
            guard let album = await model.album(id: id), let self else { return }
            self.openArtist(name: album.artist, releaseGroup: MBID(validating: album.musicBrainzReleaseGroupID))
        }
    }

    /// "Remove from Crate" with a toast that offers Undo (Ctrl+Z does the same while it is up).
    func removeAlbum(_ id: Int64) {
        Task { [weak self] in
            guard let self, let removed = await self.crate.remove(albumID: id) else { return }
            self.undo.offer(L10n.tr("Removed “%@”", removed.title), undo: { [weak self] in self?.crate.undoRemoval(of: removed) },
                            commit: { [weak self] in self?.crate.commitRemoval(removed) })
        }
    }

    /// Ctrl+Z: undoes the newest change offered with Undo, else History's last deletion.
    func undoLast() {
        if undo.undoLast() { return }
        history.undoLastDeletion()
    }

    /// Puts text on the clipboard and says so.
    func copyText(_ text: String) {
        let clipboard = gdk_display_get_clipboard(gtk_widget_get_display(widget))
        gdk_clipboard_set_text(clipboard, text)
        onCopy?(text)
        toasts.show(L10n.tr("Copied “%@”", text), seconds: 2)
    }

    /// Opens a web page (Open in MusicBrainz) in the default browser.
    func openURI(_ uri: String) {
        onOpenURI?(uri)
        gtk_show_uri(crate_window(widget), uri, 0)  // GDK_CURRENT_TIME
    }
}
