import CGtk
import CrateCore
import Foundation

/// The records' event lines: the pane's record and verdict, the pressings list and its rows'
/// positions, and the barcode bar.
extension WindowTestHooks {
    static func installRecords(_ window: MainWindow, tokens: inout [ObservationToken]) {
        guard let model = window.model, let pane = window.crate.pane else { return }
        var lastRecord = ""
        model.record.state.subscribe(initial: false) { state in
            guard let id = state.albumID else { return }
            let line = "record album=\(id) verdict=\(state.verdict.map { "\($0.kind)" } ?? "none") copies=\(state.collection.copies.count) "
                + "wanted=\(state.collection.isWanted ? 1 : 0) facts=\(state.factsLine ?? "none")"
            guard line != lastRecord else { return }
            lastRecord = line
            TestEvents.note(line)
            TestEvents.reportPoint("spin-button", of: pane.record.spinButton, in: window.widget)
        }.store(in: &tokens)
        installTurntable(in: window.widget, pane: pane, tokens: &tokens)
        var lastPressings = ""
        model.pressingsStore.state.subscribe(initial: false) { state in
            let phase: String
            switch state.phase {
            case .closed: phase = "closed"
            case .loading: phase = "loading"
            case .loaded(let pressings): phase = "loaded \(pressings.count)"
            case .failed(let message): phase = "failed \(message)"
            }
            let line = "pressings \(phase) current=\(state.currentReleaseID ?? "none") switching=\(state.switchingTo ?? "none")"
                + (state.switchError.map { " error=\($0)" } ?? "")
            guard line != lastPressings else { return }
            lastPressings = line
            TestEvents.note(line)
        }.store(in: &tokens)
        let list = pane.pressings
        // Where the expander and, once listed, each row are (the test clicks them).
        GObjectScope.of(list.widget).connect(list.widget, "map") { [weak window] in
            guard let window else { return }
            TestEvents.reportPoint("pressings-expander", of: list.widget, x: 40, y: 12, in: window.widget)
        }
        let listed = list.onListed
        list.onListed = { [weak window] labels in
            listed?(labels)
            TestEvents.note("pressings-rows \(labels.joined(separator: " | "))")
            guard let window else { return }
            for index in labels.indices {
                if let row = list.row(at: index) { TestEvents.reportPoint("pressing-row-\(index)", of: row, in: window.widget) }
            }
        }
        // The filter's buttons, centred over the grid, move when the pane opens or closes.
        let filters = window.crate.filterBar
        let reportFilters = { [weak window] in
            guard let window, gtk_widget_get_mapped(filters.widget) != 0 else { return }
            for filter in CollectionFilter.allCases {
                if let button = filters.button(for: filter) { TestEvents.reportPoint("filter-\(filter.rawValue)", of: button, in: window.widget) }
            }
        }
        GObjectScope.of(filters.widget).connect(filters.widget, "map") { reportFilters() }
        var paneAlbum: Int64?
        model.detail.state.subscribe(initial: false) { state in
            guard state.album?.id != paneAlbum else { return }
            paneAlbum = state.album?.id
            reportFilters()
        }.store(in: &tokens)
        window.scanning?.onIdentifyDialog = { dialog in
            TestEvents.note("identify-dialog open")
            GSignal.connect(dialog.widget, "destroy") { TestEvents.note("identify-dialog closed") }
            dialog.results.onShown = { [weak dialog] rows in
                guard let dialog else { return }
                for (index, row) in rows.enumerated() { TestEvents.reportPoint("identify-row-\(index)", of: row, in: dialog.widget) }
            }
        }
        model.identify.state.subscribe(initial: false) { state in
            switch state.phase {
            case .idle: TestEvents.note("identify idle")
            case .searching: TestEvents.note("identify searching")
            case .found(let candidates): TestEvents.note("identify found \(candidates.count)")
            case .failed(let message): TestEvents.note("identify failed \(message)")
            }
        }.store(in: &tokens)
        let bar = window.barcodeBar
        GObjectScope.of(bar.widget).connect(bar.widget, "notify::search-mode-enabled") { [weak bar] (_: UnsafeMutableRawPointer?) in
            guard let bar else { return }
            TestEvents.note("barcode-bar \(bar.isOpen ? "open" : "closed")")
        }
        let message = bar.onMessage
        bar.onMessage = { text in
            message?(text)
            TestEvents.note("barcode-message \(text ?? "none")")
        }
        // CRATE_TEST_DISCOGS_CSV=FILE: imported as the main menu's file chooser would; the banner's text follows.
        if let banner = DiscogsImportBanner.current {
            banner.onShow = { TestEvents.note("discogs-import \($0)") }
            if let path = ProcessInfo.processInfo.environment["CRATE_TEST_DISCOGS_CSV"] { banner.importCSV(path) }
        }
    }

    /// The turntable: its phase and the line its bar shows, and where the pane's play and turntable
    /// buttons are each time it changes (the pane's layout has settled by then).
    private static func installTurntable(in window: UnsafeMutablePointer<GtkWidget>, pane: AlbumDetailPane, tokens: inout [ObservationToken]) {
        guard let turntable = TurntableController.current else { return }
        turntable.bar.onTrackText = { TestEvents.note("turntable-track \($0)") }
        var last = ""
        turntable.store.state.subscribe(initial: false) { state in
            let line = "turntable \(state.phase) side=\(state.side ?? "none") next=\(state.nextSide ?? "none") track=\(state.track?.number ?? "none")"
            guard line != last else { return }
            last = line
            TestEvents.note(line)
            // Where "Play Side B" is (the test turns the record over with a click).
            if state.phase == .sideOver { TestEvents.reportPoint("turntable-flip", of: turntable.bar.flipButton, in: window) }
            TestEvents.reportPoint("play-button", of: pane.playAlbumButton, in: window)
            TestEvents.reportPoint("spin-button", of: pane.record.spinButton, in: window)
        }.store(in: &tokens)
    }
}
