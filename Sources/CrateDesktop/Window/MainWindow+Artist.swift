import CGtk
import CrateCore
import Foundation

/// The artist page over the window's pages, beside its own album pane (folding like the crate).
@MainActor
final class ArtistArea {
    let page = ArtistPage()
    let browser: CrateBrowser
    let pane: AlbumDetailPane
    let store: ArtistStore
    let detail: AlbumDetailStore
    var isOpen = false

    init(store: ArtistStore, detail: AlbumDetailStore) {
        self.store = store
        self.detail = detail
        browser = CrateBrowser(grid: page.widget)
        gtk_widget_add_css_class(browser.widget, "background")
        pane = AlbumDetailPane(store: detail)
        browser.setDetail(pane.widget)
        gtk_widget_set_visible(browser.widget, 0)
    }
}

extension MainWindow {
    /// Binds the artist page: the album panes' artist names open it; its tiles open its own
    /// pane with "Add to Crate"; back (its button, Esc, or another page) closes it.
    func attachArtists(_ store: ArtistStore, detail: AlbumDetailStore, thumbnails: @escaping @MainActor () -> ThumbnailFiles?, coverArt: URL) {
        let area = ArtistArea(store: store, detail: detail)
        artistArea = area
        gtk_overlay_add_overlay(crate_overlay(overlay), area.browser.widget)
        // Under the progress card, the error banner and the drop overlay.
        for layer in [progressView.widget, errorBanner.widget, dropOverlay.widget] {
            g_object_ref(UnsafeMutableRawPointer(layer))
            gtk_overlay_remove_overlay(crate_overlay(overlay), layer)
            gtk_overlay_add_overlay(crate_overlay(overlay), layer)
            g_object_unref(UnsafeMutableRawPointer(layer))
        }
        area.browser.onClose = { [weak self] in self?.closeArtistDetail() }
        area.browser.onLayoutChange = { [weak self] in self?.updateHeader() }
        area.page.onBack = { [weak self] in self?.closeArtistPage() }
        area.page.onChoose = { [weak store] candidate in
            guard let store else { return }
            TestEvents.note("artist-choose \(candidate.id.rawValue)")
            Task { await store.choose(candidate) }
        }
        area.page.loadCover = { entry in
            guard let files = thumbnails() else { return nil }
            if let path = files.cached(entry.id) { return path }
            return await Task.detached(priority: .utility) { await files.fetch(entry.id, from: entry.coverURL(base: coverArt)) }.value
        }
        area.page.onOpen = { [weak detail] entry, artwork, artist in
            guard let detail else { return }
            TestEvents.note("artist-open \(entry.id.rawValue)")
            let item = WallItem(signal: .wildCard, releaseGroupID: entry.id, title: entry.title, artist: artist, artURL: entry.coverURL(base: coverArt))
            Task { await detail.show(wallItem: item, artworkPath: artwork) }
        }
        area.pane.onPlay = { [weak self] id, track in self?.play(albumID: id, track: track) }
        area.pane.onArtist = { [weak self] name, group in self?.openArtist(name: name, releaseGroup: group) }
        detailPane?.onArtist = { [weak self] name, group in self?.openArtist(name: name, releaseGroup: group) }
        wallDetailPane?.onArtist = { [weak self] name, group in self?.openArtist(name: name, releaseGroup: group) }
        if TestEvents.isEnabled {
            // Where the album panes' artist links are (the UI tests click them).
            for (name, store, pane) in [("wall-artist", wallDetail, wallDetailPane), ("crate-artist", self.detail, detailPane)] {
                guard let store, let pane else { continue }
                store.state.subscribe(initial: false) { [weak self] state in
                    guard let self, state.album != nil else { return }
                    TestEvents.reportPoint(name, of: pane.artistButton, in: self.widget)
                }.store(in: &tokens)
            }
        }
        var shown: String?
        detail.state.subscribe(initial: true) { [weak self, weak area] state in
            guard let self, let area else { return }
            let key = state.album.map { "\($0.id.map(String.init) ?? "")|\($0.musicBrainzReleaseGroupID ?? "")" }
            if TestEvents.isEnabled, state.album != nil {
                TestEvents.note("artist-detail in-crate=\(state.album?.id != nil) adding=\(state.isAddingToCrate)")
                if state.wallItem != nil { TestEvents.reportPoint("artist-add", of: area.pane.actions.addButton, in: self.widget) }
            }
            guard key != shown else { return }
            shown = key
            if key != nil { area.browser.showDetail() } else { area.browser.showGrid() }
        }.store(in: &tokens)
        var started = Date()
        store.state.subscribe(initial: true) { [weak self, weak area] state in
            guard let self, let area else { return }
            if state.phase == .searching || state.phase == .loading, state.catalogue == nil { started = Date() }
            area.page.show(state)
            guard TestEvents.isEnabled, area.isOpen else { return }
            let phase: String
            switch state.phase {
            case .idle: phase = "idle"
            case .searching: phase = "searching"
            case .choosing: phase = "choosing"
            case .loading: phase = "loading"
            case .loaded: phase = "loaded"
            case .failed: phase = "failed"
            }
            let groups = state.catalogue?.releaseGroups ?? []
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            TestEvents.note("artist phase=\(phase) candidates=\(state.candidates.count) groups=\(groups.count) fetching=\(state.isFetching) sections=\(state.catalogue?.sections.map { "\($0.section.rawValue):\($0.entries.count)" }.joined(separator: ",") ?? "none") ms=\(ms)")
            area.page.reportPoints(in: self.widget)
        }.store(in: &tokens)
        GObjectScope.of(widget).connect(mainStack, "notify::visible-child-name") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.closeArtistPage()
        }
    }

    /// Opens the artist page for an album's artist (the cached artist listing the album opens
    /// at once, offline too; otherwise MusicBrainz is searched and namesakes are offered).
    func openArtist(name: String, releaseGroup: MBID?) {
        guard let area = artistArea else { return }
        TestEvents.note("artist-request \(name)")
        area.isOpen = true
        if area.browser.isShowingDetail { closeArtistDetail() }
        gtk_widget_set_visible(area.browser.widget, 1)
        gtk_widget_grab_focus(area.page.backButton)
        updateHeader()
        Task { await area.store.open(name: name, releaseGroup: releaseGroup) }
    }

    /// Closes the artist page (and its pane) and shows the page under it again.
    func closeArtistPage() {
        guard let area = artistArea, area.isOpen else { return }
        TestEvents.note("artist-close")
        area.isOpen = false
        closeArtistDetail()
        gtk_widget_set_visible(area.browser.widget, 0)
        area.store.close()
        updateHeader()
        if visiblePage == "crate" { grid.focus() }
    }

    func closeArtistDetail() {
        guard let area = artistArea else { return }
        Task { await area.detail.show(albumID: nil) }
        area.browser.showGrid()
    }

    /// Esc and the header's back button on the artist page: its album pane first, then the page.
    func artistBack() -> Bool {
        guard let area = artistArea, area.isOpen else { return false }
        if area.browser.isShowingDetail { closeArtistDetail() } else { closeArtistPage() }
        return true
    }

    /// True while a folded artist page shows only its album (the header shows back).
    var artistAlbumOnly: Bool {
        guard let area = artistArea, area.isOpen else { return false }
        return area.browser.isFolded && area.browser.isShowingDetail
    }
}
