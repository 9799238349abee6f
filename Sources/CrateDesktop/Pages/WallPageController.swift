import CGtk
import CrateCore

/// The Wall page: the genre bar above the Crate Wall (or a genre's feed), beside the album pane
/// its tiles open. Owns those widgets and the wall store's subscriptions; hearts and ✕ anywhere
/// in the window rate through `rate(_:_:)`.
@MainActor
final class WallPageController {
    let page = WallPage()
    /// The genre bar above the wall, and a genre's feed in the wall's place.
    let genreArea = GenreWallArea()
    /// The wall beside its album pane, folding like the crate page.
    let browser: CrateBrowser
    private(set) var store: WallStore?
    private(set) var detail: AlbumDetailStore?
    private(set) var pane: AlbumDetailPane?
    private(set) var genres: GenreFeedController?
    /// Called when what the header shows may have changed (the back button).
    var onHeaderChange: (() -> Void)?
    private weak var host: MainWindow?
    private var tokens: [ObservationToken] = []

    init(host: MainWindow) {
        self.host = host
        browser = CrateBrowser(grid: genreArea.wrap(page.widget))
    }

    /// Binds the wall and its album pane: a tile opens the pane (the crate's album when it is in
    /// the crate, else the wall album with "Add to Crate"); the pane's heart and ✕ go through
    /// the wall's store like the tiles'.
    func attach(_ wall: WallStore, detail: AlbumDetailStore) {
        store = wall
        self.detail = detail
        page.attach(wall)
        let pane = AlbumDetailPane(store: detail)
        self.pane = pane
        browser.setDetail(pane.widget)
        browser.onClose = { [weak self] in self?.closeDetail() }
        browser.onLayoutChange = { [weak self] in self?.onHeaderChange?() }
        page.onOpen = { [weak detail] tile in
            guard let detail else { return }
            Task { await detail.show(wallItem: tile.item, artworkPath: tile.artworkStatus == .available ? tile.artworkPath : nil) }
        }
        pane.actions.onRate = { [weak self, weak detail] rating in
            guard let self, let detail else { return }
            Task { await detail.rateShown(rating, using: self.rate) }
        }
        pane.onPlay = { [weak self] id, track in self?.host?.play(albumID: id, track: track) }
        pane.onArtist = { [weak self] name, group in self?.host?.openArtist(name: name, releaseGroup: group) }
        browser.follow(detail).store(in: &tokens)
    }

    /// Binds the genre bar and its feed (see GenreFeedController).
    func attachGenres(_ genreStore: GenreFeedStore) {
        guard let store, let detail else { return }
        let controller = GenreFeedController(area: genreArea, store: genreStore, wall: store, detail: detail)
        controller.onShowingChange = { [weak self] in
            // The wall's pane belongs to what it was opened from.
            if self?.browser.isShowingDetail == true { self?.closeDetail() }
        }
        controller.onBarDismiss = { [weak self] in self?.dismissGenre() }
        genres = controller
    }

    /// ♥, ✕ or neither for an album, from any tile, cell or pane.
    func rate(_ album: RatedAlbum, _ rating: AlbumRating?) async {
        guard let store else { return }
        switch rating {
        case .favourite: await store.favourite(album)
        case .dislike: await store.dislike(album)
        case nil: await store.unrate(album)
        }
    }

    /// Closes the wall's album pane (Esc, its close button, the back button).
    func closeDetail() {
        if let detail { Task { await detail.show(albumID: nil) } }
        browser.showGrid()
    }

    /// Back from a genre's feed to the wall.
    func dismissGenre() {
        if genreArea.isShowingGenre, browser.isShowingDetail { closeDetail() }
        genres?.dismiss()
    }

    /// Esc on this page: the album pane first, then the genre's feed.
    func escape() -> Bool {
        if browser.isShowingDetail {
            closeDetail()
            return true
        }
        if genreArea.isShowingGenre {
            dismissGenre()
            return true
        }
        return false
    }

    /// A folded window shows only the album (the header shows back instead of grid actions).
    var showsAlbumOnly: Bool { browser.isFolded && browser.isShowingDetail }
}
