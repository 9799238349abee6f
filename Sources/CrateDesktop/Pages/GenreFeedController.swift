import CGtk
import CrateCore

/// The genre bar and a genre's feed, on the Wall page: a genre pill shows its feed in the wall's
/// place (built with the wall's dial), subcategory pills toggle, dismiss (or "Wall", or Esc)
/// goes back to the wall. The feed's tiles open the wall's album pane and rate through the
/// wall's store, like the wall's own tiles.
@MainActor
final class GenreFeedController {
    let area: GenreWallArea
    let store: GenreFeedStore
    /// Called when the area switches between the wall and a genre's feed.
    var onShowingChange: (() -> Void)?
    /// Called after every render with the store's state.
    var onRender: ((GenreFeedState) -> Void)?
    private var tokens: [ObservationToken] = []

    init(area: GenreWallArea, store: GenreFeedStore, wall: WallStore, detail: AlbumDetailStore) {
        self.area = area
        self.store = store
        let bar = area.bar
        let feed = area.feed
        bar.onGenre = { [weak store, weak wall] id in
            guard let store, let wall else { return }
            Task { await store.select(genreID: id, dial: wall.state.value.dial) }
        }
        bar.onSubcategory = { [weak store, weak wall] id in
            guard let store, let wall else { return }
            Task { await store.toggle(subcategoryID: id, dial: wall.state.value.dial) }
        }
        bar.onDismiss = { [weak self] in self?.dismissFromBar() }
        bar.onWall = { [weak self] in self?.dismissFromBar() }
        feed.onOpen = { [weak detail] tile in
            guard let detail else { return }
            Task { await detail.show(wallItem: tile.item, artworkPath: tile.artworkStatus == .available ? tile.artworkPath : nil) }
        }
        feed.onRefresh = { [weak store] in
            guard let store else { return }
            Task { await store.refresh() }
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
            if showing != area.isShowingGenre {
                self.onShowingChange?()
                area.showGenre(showing)
            }
        }
        var lastDial: CrateDialPosition?
        wall.state.subscribe(initial: false) { [weak store] state in
            render()
            if let last = lastDial, last != state.dial, let store { Task { await store.setDial(state.dial) } }
            lastDial = state.dial
        }.store(in: &tokens)
        lastDial = wall.state.value.dial
        store.state.subscribe(initial: true) { [weak self] state in
            render()
            self?.onRender?(state)
        }.store(in: &tokens)
    }

    /// Back to the wall.
    func dismiss() {
        onDismiss?()
        store.dismiss()
    }
    /// Called whenever the feed is dismissed (bar, "Wall", Esc).
    var onDismiss: (() -> Void)?

    /// The bar's ✕ and "Wall": the wall's pane closes with the feed it was opened from.
    var onBarDismiss: (() -> Void)?
    private func dismissFromBar() {
        if let onBarDismiss { onBarDismiss() } else { dismiss() }
    }
}
