import CGtk
import CrateCore

extension MainWindow {
    /// Binds the Wall page and its album pane: a tile opens the pane (the crate's album when it
    /// is in the crate, else the wall album with "Add to Crate"); the pane's heart and ✕ go
    /// through the wall's store like the tiles'.
    func attachWall(_ wall: WallStore, detail: AlbumDetailStore) {
        wallPage.attach(wall)
        wallDetail = detail
        let pane = AlbumDetailPane(store: detail)
        wallDetailPane = pane
        wallBrowser.setDetail(pane.widget)
        wallBrowser.onClose = { [weak self] in self?.closeWallDetail() }
        wallBrowser.onLayoutChange = { [weak self] in
            self?.updateHeader()
            self?.wallPage.reportPointsForTests()
        }
        wallPage.onOpen = { [weak detail] tile in
            guard let detail else { return }
            TestEvents.note("wall-open \(tile.item.releaseGroupID.rawValue)")
            Task { await detail.show(wallItem: tile.item, artworkPath: tile.artworkStatus == .available ? tile.artworkPath : nil) }
        }
        // The crate's grid and pane rate through the same store as the tiles.
        let rate: @MainActor (RatedAlbum, AlbumRating?) async -> Void = { [weak wall] album, rating in
            guard let wall else { return }
            switch rating {
            case .favourite: await wall.favourite(album)
            case .dislike: await wall.dislike(album)
            case nil: await wall.unrate(album)
            }
        }
        grid.onRate = { album, rating in
            TestEvents.note("grid-rate \(album.releaseGroupID.rawValue) \(AlbumRating.describe(rating))")
            Task { await rate(album, rating) }
        }
        detailPane?.actions.onRate = { [weak self] rating in
            guard let detail = self?.detail else { return }
            Task { await detail.rateShown(rating, using: rate) }
        }
        wall.state.subscribe(initial: true) { [weak self] state in
            self?.grid.show(ratings: state.ratings)
        }.store(in: &tokens)
        pane.actions.onRate = { [weak detail] rating in
            guard let detail else { return }
            Task { await detail.rateShown(rating, using: rate) }
        }
        pane.onPlay = { [weak self] id, track in self?.play(albumID: id, track: track) }
        var shown: String?
        detail.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            let key = state.album.map { "\($0.id.map(String.init) ?? "")|\($0.musicBrainzReleaseGroupID ?? "")" }
            if TestEvents.isEnabled, state.album != nil {
                TestEvents.note("wall-detail in-crate=\(state.album?.id != nil) tracks=\(state.tracks.count) rating=\(AlbumRating.describe(state.rating)) adding=\(state.isAddingToCrate)")
                if state.wallItem != nil { TestEvents.reportPoint("wall-add", of: pane.actions.addButton, in: self.widget) }
                TestEvents.reportPoint("wall-heart", of: pane.actions.heart, in: self.widget)
            }
            guard key != shown else { return }
            shown = key
            if key != nil { self.wallBrowser.showDetail() } else { self.wallBrowser.showGrid() }
        }.store(in: &tokens)
    }

    /// Closes the wall's album pane (Esc, its close button, the back button).
    func closeWallDetail() {
        if let wallDetail { Task { await wallDetail.show(albumID: nil) } }
        wallBrowser.showGrid()
    }
}
