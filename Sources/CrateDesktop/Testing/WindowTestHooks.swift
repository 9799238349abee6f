import CGtk
import CrateCore
import Foundation

/// With `CRATE_TEST_EVENTS=1`, follows the window from the outside — its stores' state, its
/// widgets' signals and the pages' callbacks — and prints the event lines the UI tests wait on
/// (see TestEvents). App code never prints them itself: the hooks wrap the callbacks the pages
/// set, after they were set, so each user action still does exactly what it did.
@MainActor
enum WindowTestHooks {
    /// Turns what widgets say (WidgetEvents) into event lines, from the start of the app.
    static func observeWidgetsIfEnabled() {
        guard TestEvents.isEnabled else { return }
        WidgetEvents.observer = { event in
            switch event {
            case .line(let line): TestEvents.emit(line)
            case .point(let name, let widget, let x, let y, let window): TestEvents.reportPoint(name, of: widget, x: x, y: y, in: window)
            }
        }
    }

    /// Installs every hook once the window's stores are attached (no-op without the variable).
    static func installIfEnabled(on window: MainWindow, app: CrateApplication) {
        guard TestEvents.isEnabled else { return }
        var tokens: [ObservationToken] = []
        installWindow(window, app: app, tokens: &tokens)
        installCrate(window, tokens: &tokens)
        installHistory(window)
        installWall(window, tokens: &tokens)
        installGenres(window)
        installArtist(window, tokens: &tokens)
        installCDs(window)
        installRecords(window, tokens: &tokens)
        // The tokens live as long as the window.
        GObjectScope.of(window.widget).keepAlive(TokenBag(tokens))
    }

    private final class TokenBag {
        let tokens: [ObservationToken]
        init(_ tokens: [ObservationToken]) { self.tokens = tokens }
    }

    // MARK: - The window

    private static func installWindow(_ window: MainWindow, app: CrateApplication, tokens: inout [ObservationToken]) {
        let scope = GObjectScope.of(window.widget)
        window.toasts.onShow = { TestEvents.toast($0) }
        // `banner notice|error TEXT`: the one shown at start (a library moved aside) too.
        let banner = { (message: String, isError: Bool) in TestEvents.note("banner \(isError ? "error" : "notice") \(message)") }
        if let shown = window.banner.shown { banner(shown.message, shown.isError) }
        window.banner.onShow = banner
        scope.connect(window.searchBar, "notify::search-mode-enabled") { [weak window] (_: UnsafeMutableRawPointer?) in
            guard let window else { return }
            TestEvents.note("search \(gtk_search_bar_get_search_mode(crate_search_bar(window.searchBar)) != 0 ? "open" : "closed")")
        }
        scope.connect(window.searchEntry, "search-changed") { [weak window] in
            guard let window, let text = gtk_editable_get_text(crate_editable(window.searchEntry)) else { return }
            TestEvents.note("search-text \(String(cString: text))")
        }
        scope.connect(window.mainStack, "notify::visible-child-name") { [weak window] (_: UnsafeMutableRawPointer?) in
            guard let window, window.visiblePage == "history" else { return }
            TestEvents.reportPoint("history-origin", of: window.history.list.widget, x: 0, y: 0, in: window.widget)
        }
        window.header.onGridButtonsSensitive = { TestEvents.note("grid-buttons \($0 ? "sensitive" : "insensitive")") }
        window.onShowInHistory = { [weak window] scanID in
            guard let window else { return }
            let list = window.history.list
            // Once laid out: every thumbnail one square, whatever the cover's shape.
            GObjectScope.of(window.widget).after(seconds: 1) {
                TestEvents.note("history-thumbnails " + list.thumbnailSizes().joined(separator: " "))
            }
            TestEvents.note("history-shows-scan \(scanID) at \(list.position(ofScan: scanID).map(String.init) ?? "none")")
        }
        window.onOpenURI = { TestEvents.emit("open-uri \($0)") }
        window.onCopy = { TestEvents.note("copied \($0)") }
        window.scanning?.onBudgetNotice = { TestEvents.note("budget-notice \($0)") }
        // The scan's phase and the card's message, as they change.
        var lastScan = ""
        window.scanning?.store.state.subscribe(initial: false) { state in
            let phase: String
            switch state.phase {
            case .idle: phase = "idle"
            case .identifying: phase = "identifying"
            case .identified: phase = "identified"
            case .loadingReview: phase = "review"
            case .complete: phase = "complete"
            case .failed(_, let failure): phase = failure == .cancelled ? "cancelled" : "failed"
            }
            let line = "scan-phase \(phase) message=\(state.message)"
            guard line != lastScan else { return }
            lastScan = line
            TestEvents.note(line)
        }.store(in: &tokens)
        // Where the empty crate's Open Photos… button is, once the crate shows empty.
        if let button = window.crate.emptyActionButton {
            GObjectScope.of(button).connect(button, "map") { [weak window] in
                guard let window else { return }
                TestEvents.reportPoint("empty-open-photos", of: button, in: window.widget)
            }
        }
        window.musicFolders?.onEvent = { TestEvents.note($0) }
        window.onWelcome = { [weak window] view in
            guard let window else { return }
            guard let view else { return TestEvents.note("welcome closed") }
            reportWelcome(view, in: window.widget)
        }
        app.onPreferences = { preferences in
            TestEvents.note("preferences shown")
            GObjectScope.of(preferences.widget).every(milliseconds: 500) { [weak preferences] in
                guard let preferences else { return false }
                preferences.collectionPage?.reportPoints()
                reportPreferencesTabs(preferences.widget)
                return true
            }
            GSignal.connect(preferences.widget, "destroy") { TestEvents.note("preferences closed") }
            // `preferences page <title>`: the page shown after a tab was chosen. (A notify handler
            // takes the GParamSpec as its one argument.)
            GSignal.connect(preferences.widget, "notify::visible-page") { [weak preferences] (_: UnsafeMutableRawPointer?) in
                guard let preferences, let page = adw_preferences_window_get_visible_page(crate_preferences_window(preferences.widget)),
                      let title = adw_preferences_page_get_title(page) else { return }
                TestEvents.note("preferences page \(String(cString: title).lowercased())")
            }
            let state = preferences.store.provider.state.value
            TestEvents.note("preferences-provider \(state.provider.rawValue) note=\(preferences.store.settings.sessionNote(.provider) ?? "none")")
            // How many lines the Test Connection button and the key link take once laid out.
            GObjectScope.of(preferences.widget).after(seconds: 1) {
                for (name, text) in [("test-button", L10n.tr("_Test Connection")), ("key-link", preferences.store.provider.state.value.keyLinkTitle)] {
                    guard let button = crate_button_with_label(preferences.widget, text),
                          let label = gtk_button_get_child(crate_button(button)) else { continue }
                    TestEvents.note("preferences-lines \(name) \(pango_layout_get_line_count(gtk_label_get_layout(crate_label(label))))")
                }
            }
        }
        reportLayout(window)
        // CRATE_TEST_TOAST=TEXT: a toast with a Show button once the window is up (its layout
        // and its button are checked without staging a scan that produces it).
        if let text = ProcessInfo.processInfo.environment["CRATE_TEST_TOAST"] {
            GObjectScope.of(window.widget).after(seconds: 2) { [weak window] in
                // The same button and action as a run's summary.
                window?.toasts.show(text, button: L10n.tr("_Show"), seconds: 60, action: { [weak window] in
                    TestEvents.note("toast-action")
                    window?.showPage("history")
                })
                TestEvents.note("toast-shown")
                // Where its Show button is once the toast has slid in (and again after a resize).
                guard let window else { return }
                GObjectScope.of(window.widget).every(milliseconds: 500) { [weak window] in
                    guard let window else { return false }
                    if let button = crate_button_with_label(window.toasts.widget, L10n.tr("_Show")) {
                        TestEvents.reportPoint("toast-show", of: button, in: window.widget)
                    }
                    return true
                }
            }
        }
    }

    private static func reportWelcome(_ view: WelcomeView, in window: UnsafeMutablePointer<GtkWidget>) {
        TestEvents.note("welcome shown")
        TestEvents.reportMinimumWidths([("welcome", view.widget)])
        TestEvents.reportPoint("welcome-key", of: view.keyField, in: window)
        TestEvents.reportPoint("welcome-test", of: view.testConnectionButton, in: window)
        TestEvents.reportPoint("welcome-save", of: view.saveButton, in: window)
        var last: CredentialCheck?
        view.onConnection = { state in
            guard state != last else { return }
            last = state
            switch state {
            case .idle: break
            case .checking: TestEvents.note("connection testing")
            case .valid: TestEvents.note("connection succeeded")
            case .invalid(let text), .offline(let text): TestEvents.note("connection failed \(text)")
            }
        }
    }

    /// The narrowest each part of the window can be (banners measured with long messages), the
    /// progress card's sizes, and the grid's laid-out cells whenever they change.
    private static func reportLayout(_ window: MainWindow) {
        let notice = NoticeBanner(), error = ErrorBanner()
        let root = adw_application_window_get_content(crate_adw_application_window(window.widget))!
        // The header as it is below the switcher's width: the count label hides there.
        gtk_widget_set_visible(window.header.countLabel, 0)
        notice.show(L10n.tr("Crate found your library damaged and moved it aside to %@; a new, empty library was created.", "crate.sqlite.damaged-2026-11-23T09:00:00"))
        error.show(L10n.tr("The playback service could not start the album because the track list of this album has not arrived yet."))
        TestEvents.reportMinimumWidths([("progress-card", window.progressView.card), ("notice-banner", notice.widget),
                                        ("error-banner", error.widget), ("window-content", window.overlay),
                                        ("header-bar", gtk_widget_get_first_child(root)!), ("switcher-bar", gtk_widget_get_last_child(root)!),
                                        ("switcher-title", window.header.switcherTitle)])
        window.updateHeader()
        TestEvents.reportCardHeights(ScanProgressView())
        g_object_ref_sink(notice.widget); g_object_unref(notice.widget)
        g_object_ref_sink(error.widget); g_object_unref(error.widget)
        // Checked a few times a second: covers arrive and cells are laid out frames after they are bound.
        var reported = ""
        GObjectScope.of(window.widget).every(milliseconds: 250) { [weak window] in
            guard let window else { return false }
            let grid = window.crate.grid
            let sizes = grid.boundCellSizes().filter { $0.width > 0 && $0.height > 0 }
            let line = sizes.map { "\($0.width)x\($0.height)" }.joined(separator: " ")
            guard !sizes.isEmpty, line != reported else { return true }
            reported = line
            TestEvents.note("grid-cell-sizes " + line)
            if let first = grid.firstCellWidget() { TestEvents.reportPoint("grid-first-cell", of: first, in: window.widget) }
            return true
        }
    }

    // MARK: - Crate and History

    private static func installCrate(_ window: MainWindow, tokens: inout [ObservationToken]) {
        let crate = window.crate!
        guard let library = crate.library, let detail = crate.detail, let pane = crate.pane, let history = window.history.store else { return }
        crate.grid.onNowPlaying = { TestEvents.note("grid-now-playing \($0.map(String.init) ?? "none")") }
        let count = crate.onCount
        crate.onCount = { text in
            count?(text)
            TestEvents.note("album-count \(text)")
        }
        // A count shown before the hooks were installed.
        if let text = crate.countText, crate.isLive { TestEvents.note("album-count \(text)") }
        // `crate-stack NAME`: what the page shows (loading, grid, empty, error, …).
        let stackName = { TestEvents.note("crate-stack \(gtk_stack_get_visible_child_name(crate_stack(crate.stack)).map { String(cString: $0) } ?? "none")") }
        stackName()
        GObjectScope.of(window.widget).connect(crate.stack, "notify::visible-child-name") { (_: UnsafeMutableRawPointer?) in stackName() }
        pane.onPlayIcon = { [weak window] icon in
            TestEvents.note("pane-play-icon \(icon)")
            if let window { TestEvents.reportPoint("play-button", of: pane.playAlbumButton, in: window.widget) }
        }
        pane.onTracksMarked = { playing, keys in TestEvents.note("tracks-marked playing=\(playing.map(String.init) ?? "none") key=\(keys)") }
        pane.onPlaybackNote = { TestEvents.note("pane-note \($0 ?? "none")") }
        window.playback?.bar.onTrackText = { TestEvents.note("bar-track \($0.isEmpty ? "none" : $0)") }
        detail.state.subscribe(initial: true) { state in
            guard let id = state.album?.id else { return }
            TestEvents.note("tracks-without-files \(id) \(state.tracksWithoutFiles.count)")
        }.store(in: &tokens)
        pane.candidates.onShown = { [weak window] rows in
            guard let window, let first = rows.first else { return }
            TestEvents.reportPoint("candidate-row", of: first, in: window.widget)
            for (index, row) in rows.enumerated() { TestEvents.reportPoint("candidate-row-\(index)", of: row, in: window.widget) }
        }
        pane.candidates.onListed = { rows, expanded in
            TestEvents.note("candidates \(rows.isEmpty ? "none" : rows.joined(separator: "|")) open=\(expanded)")
        }
        // The pane's width once laid out after each album: the same for every album (it used to
        // grow with an open "Not this album?" list and squeeze the grid).
        detail.state.subscribe(initial: false) { [weak window] state in
            guard let window, state.album != nil else { return }
            GObjectScope.of(window.widget).after(seconds: 1) { [weak window] in
                guard let window, let pane = window.crate.pane, gtk_widget_get_mapped(pane.widget) != 0 else { return }
                TestEvents.note("pane-width \(gtk_widget_get_width(pane.widget))")
                TestEvents.note("review-clipped \(pane.review.clippedTextViews())")
            }
        }.store(in: &tokens)
        crate.onReconsider = { id, scan, count in TestEvents.note("reconsider \(id) scan=\(scan) candidates=\(count)") }
        crate.onRemoved = { TestEvents.note("album-removed \($0)") }
        crate.onRestored = { TestEvents.note("album-restored \($0)") }
        let rate = crate.grid.onRate
        crate.grid.onRate = { album, rating in
            TestEvents.note("grid-rate \(album.releaseGroupID.rawValue) \(AlbumRating.describe(rating))")
            rate?(album, rating)
        }
        tokens.append(contentsOf: TestEvents.report(library: library, history: history))
        tokens.append(contentsOf: TestEvents.reportSelection(library: library, detail: detail, window: window.widget,
                                                             grid: crate.grid.widget, playButton: pane.playAlbumButton))
    }

    private static func installHistory(_ window: MainWindow) {
        window.history.list.onSelectionChanged = { TestEvents.historySelection($0) }
        // After each resize: how many rows of photos without a scan cut their text short.
        GObjectScope.of(window.widget).connect(window.widget, "notify::default-width") { [weak window] (_: UnsafeMutableRawPointer?) in
            guard let window else { return }
            GObjectScope.of(window.widget).after(seconds: 1) { [weak window] in
                guard let window, window.visiblePage == "history" else { return }
                let (rows, cut) = window.history.list.problemRowsCut()
                TestEvents.note("history-problem-rows \(rows) cut=\(cut) width=\(gtk_widget_get_width(window.widget))")
            }
        }
    }

    /// `preferences-tab-<title> X Y`: the view switcher's buttons (where libadwaita puts them
    /// depends on the window's width and the pages there are), in the window's coordinates.
    private static func reportPreferencesTabs(_ window: UnsafeMutablePointer<GtkWidget>) {
        // The title holds a wide and a narrow switcher and shows one: the one on screen counts.
        guard let switcher = mappedDescendant(of: window, type: g_type_from_name("AdwViewSwitcher")) else { return }
        var dx = 0.0, dy = 0.0
        if let native = gtk_widget_get_native(window) { gtk_native_get_surface_transform(native, &dx, &dy) }
        var button = gtk_widget_get_first_child(switcher)
        while let current = button {
            if let label = crate_first_descendant(current, gtk_label_get_type()), let text = gtk_label_get_text(crate_label(label)) {
                let name = String(cString: text).lowercased().replacingOccurrences(of: " ", with: "-")
                TestEvents.reportPoint("preferences-tab-\(name)", of: current, x: Double(gtk_widget_get_width(current)) / 2 + dx,
                                       y: Double(gtk_widget_get_height(current)) / 2 + dy, in: window)
            }
            button = gtk_widget_get_next_sibling(current)
        }
    }

    private static func mappedDescendant(of root: UnsafeMutablePointer<GtkWidget>, type: GType) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            if gtk_widget_get_mapped(current) != 0 {
                if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self), type) != 0 { return current }
                if let found = mappedDescendant(of: current, type: type) { return found }
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
