import CGtk
import CrateCore

extension MainWindow {
    /// Binds the genre bar and the genre feed: a genre pill shows its feed in the wall's place
    /// (built with the wall's dial), subcategory pills toggle, dismiss (or "Wall", or Esc) goes
    /// back to the wall. The feed's tiles open the wall's album pane and rate through the wall's
    /// store, like the wall's own tiles.
    func attachGenres(_ store: GenreFeedStore, wall: WallStore, detail: AlbumDetailStore) {
        genreStore = store
        let bar = genreArea.bar
        let feed = genreArea.feed
        bar.onGenre = { [weak store, weak wall] id in
            guard let store, let wall else { return }
            TestEvents.note("genre-select \(id)")
            Task { await store.select(genreID: id, dial: wall.state.value.dial) }
        }
        bar.onSubcategory = { [weak store, weak wall] id in
            guard let store, let wall else { return }
            TestEvents.note("genre-toggle \(id)")
            Task { await store.toggle(subcategoryID: id, dial: wall.state.value.dial) }
        }
        bar.onDismiss = { [weak self] in self?.dismissGenre() }
        bar.onWall = { [weak self] in self?.dismissGenre() }
        feed.onOpen = { [weak detail] tile in
            guard let detail else { return }
            TestEvents.note("genre-open \(tile.item.releaseGroupID.rawValue)")
            Task { await detail.show(wallItem: tile.item, artworkPath: tile.artworkStatus == .available ? tile.artworkPath : nil) }
        }
        feed.onRate = { [weak wall] album, rating in
            guard let wall else { return }
            Task {
                switch rating {
                case .favourite: await wall.favourite(album)
                case .dislike: await wall.dislike(album)
                case nil: await wall.unrate(album)
                }
            }
        }
        let render: @MainActor () -> Void = { [weak self, weak store, weak wall] in
            guard let self, let store, let wall else { return }
            let state = store.state.value
            let wallState = wall.state.value
            bar.show(state)
            let dial = wallState.dialEntries.first { $0.position == wallState.dial }?.displayTitle
            feed.show(state, ratings: wallState.ratings, dial: dial)
            let showing = state.genre != nil
            if showing != self.genreArea.isShowingGenre {
                // The wall's pane belongs to what it was opened from.
                if self.wallBrowser.isShowingDetail { self.closeWallDetail() }
                self.genreArea.showGenre(showing)
            }
        }
        var lastDial: CrateDialPosition?
        wall.state.subscribe(initial: false) { [weak store] state in
            render()
            if let last = lastDial, last != state.dial, let store { Task { await store.setDial(state.dial) } }
            lastDial = state.dial
        }.store(in: &tokens)
        lastDial = wall.state.value.dial
        var reported: String?
        store.state.subscribe(initial: true) { [weak self] state in
            render()
            guard let self, TestEvents.isEnabled else { return }
            // Covers arriving change nothing the tests follow.
            let key = "\(state.genre?.id ?? "")|\(state.selected)|\(state.phase)|\(state.tiles.count)|\(state.unavailable.count)"
            guard key != reported else { return }
            reported = key
            let phase: String
            switch state.phase {
            case .idle: phase = "idle"
            case .loading: phase = "loading"
            case .loaded: phase = "loaded"
            }
            let missing = state.unavailable.map(\.signal.rawValue).joined(separator: ",")
            TestEvents.note("genre-bar genre=\(state.genre?.id ?? "wall") subs=\(state.selected.isEmpty ? "none" : state.selected.joined(separator: ",")) pills=\(state.genre?.subcategories.count ?? state.genres.count)")
            TestEvents.note("genre-feed genre=\(state.genre?.id ?? "wall") phase=\(phase) tiles=\(state.tiles.count) unavailable=\(missing.isEmpty ? "none" : missing)")
            self.reportGenrePoints()
        }.store(in: &tokens)
    }

    /// Back from a genre's feed to the wall.
    func dismissGenre() {
        TestEvents.note("genre-dismiss")
        if genreArea.isShowingGenre, wallBrowser.isShowingDetail { closeWallDetail() }
        genreStore?.dismiss()
    }

    /// Where the bar's pills and the first genre tile are (the bar's height too: it never changes).
    func reportGenrePoints() {
        guard TestEvents.isEnabled else { return }
        genreArea.bar.reportPoints(in: widget)
        genreArea.feed.reportPoints(in: widget)
        let bar = genreArea.bar.widget
        g_object_ref(UnsafeMutableRawPointer(bar))
        Task { @MainActor in
            defer { g_object_unref(UnsafeMutableRawPointer(bar)) }
            try? await Task.sleep(for: .milliseconds(700))
            TestEvents.note("genre-bar-height \(gtk_widget_get_height(bar))")
        }
    }
}
