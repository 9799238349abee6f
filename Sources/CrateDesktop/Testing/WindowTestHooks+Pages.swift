import CGtk
import CrateCore
import Foundation

/// The hooks of the Wall, the genre feed, the artist page and the CDs (see WindowTestHooks).
extension WindowTestHooks {
    static func installWall(_ window: MainWindow, tokens: inout [ObservationToken]) {
        let wall = window.wall!
        guard let detail = wall.detail, let pane = wall.pane else { return }
        let open = wall.page.onOpen
        wall.page.onOpen = { tile in
            TestEvents.note("wall-open \(tile.item.releaseGroupID.rawValue)")
            open?(tile)
        }
        let layout = wall.browser.onLayoutChange
        wall.browser.onLayoutChange = {
            layout?()
            wall.page.reportPointsForTests()
        }
        detail.state.subscribe(initial: true) { [weak window] state in
            guard let window, state.album != nil else { return }
            TestEvents.note("wall-detail in-crate=\(state.album?.id != nil) tracks=\(state.tracks.count) rating=\(AlbumRating.describe(state.rating)) adding=\(state.isAddingToCrate)")
            if state.wallItem != nil { TestEvents.reportPoint("wall-add", of: pane.actions.addButton, in: window.widget) }
            TestEvents.reportPoint("wall-heart", of: pane.actions.heart, in: window.widget)
        }.store(in: &tokens)
    }

    static func installGenres(_ window: MainWindow) {
        guard let genres = window.wall.genres else { return }
        let bar = genres.area.bar, feed = genres.area.feed
        let select = bar.onGenre, toggle = bar.onSubcategory, open = feed.onOpen
        bar.onGenre = { id in
            TestEvents.note("genre-select \(id)")
            select?(id)
        }
        bar.onSubcategory = { id in
            TestEvents.note("genre-toggle \(id)")
            toggle?(id)
        }
        feed.onOpen = { tile in
            TestEvents.note("genre-open \(tile.item.releaseGroupID.rawValue)")
            open?(tile)
        }
        let dismiss = genres.onDismiss
        genres.onDismiss = {
            TestEvents.note("genre-dismiss")
            dismiss?()
        }
        var reported: String?
        let render: (GenreFeedState) -> Void = { [weak window] state in
            guard let window else { return }
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
            let reasons = Set(state.unavailable.map(\.reason)).sorted().joined(separator: "|")
            TestEvents.note("genre-feed genre=\(state.genre?.id ?? "wall") phase=\(phase) tiles=\(state.tiles.count) unavailable=\(missing.isEmpty ? "none" : missing) reasons=\(reasons.isEmpty ? "none" : reasons)")
            reportGenrePoints(genres.area, in: window.widget)
        }
        genres.onRender = render
        render(genres.store.state.value)
    }

    /// Where the bar's pills and the first genre tile are (the bar's height too: it never changes).
    private static func reportGenrePoints(_ area: GenreWallArea, in window: UnsafeMutablePointer<GtkWidget>) {
        area.bar.reportPoints(in: window)
        area.feed.reportPoints(in: window)
        let bar = area.bar.widget
        g_object_ref(UnsafeMutableRawPointer(bar))
        Task { @MainActor in
            defer { g_object_unref(UnsafeMutableRawPointer(bar)) }
            try? await Task.sleep(for: .milliseconds(700))
            TestEvents.note("genre-bar-height \(gtk_widget_get_height(bar))")
        }
    }

    static func installArtist(_ window: MainWindow, tokens: inout [ObservationToken]) {
        guard let artist = window.artist else { return }
        let choose = artist.page.onChoose, open = artist.page.onOpen
        artist.page.onChoose = { candidate in
            TestEvents.note("artist-choose \(candidate.id.rawValue)")
            choose?(candidate)
        }
        artist.page.onOpen = { entry, artwork, name in
            TestEvents.note("artist-open \(entry.id.rawValue)")
            open?(entry, artwork, name)
        }
        artist.onOpenRequest = { TestEvents.note("artist-request \($0)") }
        let close = artist.onClose
        artist.onClose = {
            TestEvents.note("artist-close")
            close?()
        }
        // Where the album panes' artist links are (the UI tests click them).
        for (name, store, pane) in [("wall-artist", window.wall.detail, window.wall.pane), ("crate-artist", window.crate.detail, window.crate.pane)] {
            guard let store, let pane else { continue }
            store.state.subscribe(initial: false) { [weak window] state in
                guard let window, state.album != nil else { return }
                TestEvents.reportPoint(name, of: pane.artistButton, in: window.widget)
            }.store(in: &tokens)
        }
        artist.detail.state.subscribe(initial: true) { [weak window] state in
            guard let window, state.album != nil else { return }
            TestEvents.note("artist-detail in-crate=\(state.album?.id != nil) adding=\(state.isAddingToCrate)")
            if state.wallItem != nil { TestEvents.reportPoint("artist-add", of: artist.pane.actions.addButton, in: window.widget) }
        }.store(in: &tokens)
        artist.onRender = { [weak window] state, elapsed in
            guard let window else { return }
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
            let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            TestEvents.note("artist phase=\(phase) candidates=\(state.candidates.count) groups=\(groups.count) fetching=\(state.isFetching) sections=\(state.catalogue?.sections.map { "\($0.section.rawValue):\($0.entries.count)" }.joined(separator: ",") ?? "none") ms=\(ms)")
            artist.page.reportPoints(in: window.widget)
        }
    }

    static func installCDs(_ window: MainWindow) {
        guard let cds = window.cds else { return }
        let page = cds.page
        cds.onPlayRequest = { TestEvents.note("cds-play \($0)") }
        page.onCover = { TestEvents.note("cds-cover \($0)") }
        let add = page.onAdd
        page.onAdd = { discID in
            TestEvents.note("cds-add")
            add?(discID)
        }
        cds.onRender = { [weak window] state in
            guard let window, state.phase == .loaded, let first = page.playButtons.first else { return }
            TestEvents.reportPoint("cds-play", of: first.button, in: window.widget)
        }
        GObjectScope.of(page.widget).connect(page.widget, "map") { [weak window] in
            guard let window else { return }
            TestEvents.note("cds page mapped")
            TestEvents.reportMinimumWidths([("cds-page", page.widget)])
            if let first = page.playButtons.first { TestEvents.reportPoint("cds-play", of: first.button, in: window.widget) }
        }
    }
}
