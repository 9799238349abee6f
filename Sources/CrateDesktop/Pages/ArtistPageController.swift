import CGtk
import CrateCore
import Foundation

/// The artist page, over the window's pages, beside its own album pane (folding like the crate):
/// the album panes' artist names open it; its tiles open its pane with "Add to Crate"; back (its
/// button, Esc, or another page) closes it.
@MainActor
final class ArtistPageController {
    let page = ArtistPage()
    let browser: CrateBrowser
    let pane: AlbumDetailPane
    let store: ArtistStore
    let detail: AlbumDetailStore
    private(set) var isOpen = false
    /// Called when what the header shows may have changed (the back button).
    var onHeaderChange: (() -> Void)?
    /// Called when the page closed.
    var onClose: (() -> Void)?
    /// Called with each state shown while the page is open, and how long the open has taken.
    var onRender: ((ArtistPageState, Duration) -> Void)?
    private weak var host: MainWindow?
    private var tokens: [ObservationToken] = []

    init(host: MainWindow, store: ArtistStore, detail: AlbumDetailStore, thumbnails: @escaping @MainActor () -> ThumbnailFiles?, coverArt: URL) {
        self.host = host
        self.store = store
        self.detail = detail
        browser = CrateBrowser(grid: page.widget)
        gtk_widget_add_css_class(browser.widget, "background")
        pane = AlbumDetailPane(store: detail)
        browser.setDetail(pane.widget)
        gtk_widget_set_visible(browser.widget, 0)

        browser.onClose = { [weak self] in self?.closeDetail() }
        browser.onLayoutChange = { [weak self] in self?.onHeaderChange?() }
        page.onBack = { [weak self] in self?.close() }
        page.onChoose = { [weak store] candidate in
            guard let store else { return }
            Task { await store.choose(candidate) }
        }
        page.loadCover = { entry in
            guard let files = thumbnails() else { return nil }
            if let path = files.cached(entry.id) { return path }
            return await Task.detached(priority: .utility) { await files.fetch(entry.id, from: entry.coverURL(base: coverArt)) }.value
        }
        page.onOpen = { [weak detail] entry, artwork, artist in
            guard let detail else { return }
            let item = WallItem(signal: .wildCard, releaseGroupID: entry.id, title: entry.title, artist: artist, artURL: entry.coverURL(base: coverArt))
            Task { await detail.show(wallItem: item, artworkPath: artwork) }
        }
        pane.onPlay = { [weak self] id, track in self?.host?.play(albumID: id, track: track) }
        pane.onArtist = { [weak self] name, group in self?.open(name: name, releaseGroup: group) }
        browser.follow(detail).store(in: &tokens)
        var started = ContinuousClock.now
        store.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            if state.phase == .searching || state.phase == .loading, state.catalogue == nil { started = .now }
            self.page.show(state)
            if self.isOpen { self.onRender?(state, .now - started) }
        }.store(in: &tokens)
    }

    /// Opens the page for an album's artist (the cached artist listing the album opens at once,
    /// offline too; otherwise MusicBrainz is searched and namesakes are offered).
    func open(name: String, releaseGroup: MBID?) {
        onOpenRequest?(name)
        isOpen = true
        if browser.isShowingDetail { closeDetail() }
        gtk_widget_set_visible(browser.widget, 1)
        gtk_widget_grab_focus(page.backButton)
        onHeaderChange?()
        Task { await store.open(name: name, releaseGroup: releaseGroup) }
    }
    /// Called with the artist's name when the page is asked to open.
    var onOpenRequest: ((String) -> Void)?

    /// Closes the page (and its pane) and shows the page under it again.
    func close() {
        guard isOpen else { return }
        isOpen = false
        closeDetail()
        gtk_widget_set_visible(browser.widget, 0)
        store.close()
        onHeaderChange?()
        onClose?()
    }

    func closeDetail() {
        Task { await detail.show(albumID: nil) }
        browser.showGrid()
    }

    /// Esc and the header's back button: its album pane first, then the page.
    func back() -> Bool {
        guard isOpen else { return false }
        if browser.isShowingDetail { closeDetail() } else { close() }
        return true
    }

    /// True while a folded artist page shows only its album (the header shows back).
    var showsAlbumOnly: Bool { isOpen && browser.isFolded && browser.isShowingDetail }
}
