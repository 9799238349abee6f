import CGtk
import CrateCore
import Foundation

/// With `CRATE_TEST_EVENTS=1` in the environment, the window prints one stdout line whenever the
/// number of albums in the grid or of scans in the history changes (`grid-count N`,
/// `history-count N`), so a script can watch it react to another process's writes.
@MainActor
enum TestEvents {
    static var isEnabled: Bool {
        ProcessInfo.processInfo.environment["CRATE_TEST_EVENTS"] == "1"
    }

    /// Subscribe after the widgets' own subscriptions: a count is printed once it is on screen.
    static func report(library: LibraryStore, history: HistoryStore) -> [ObservationToken] {
        var gridCount: Int?
        var historyCount: Int?
        var unscannedCount: Int?
        return [
            history.state.subscribe(initial: true) { state in
                guard state.phase == .loaded, state.unscanned.count != unscannedCount else { return }
                unscannedCount = state.unscanned.count
                emit("history-unscanned \(state.unscanned.count) \(state.unscanned.map { "\($0.name):\($0.waits ? "waits" : "failed")" }.joined(separator: ","))")
            },
            library.state.subscribe(initial: true) { state in
                guard state.phase == .loaded, state.listing.count != gridCount else { return }
                gridCount = state.listing.count
                emit("grid-count \(state.listing.count)")
            },
            history.state.subscribe(initial: true) { state in
                guard state.phase == .loaded, state.entries.count != historyCount else { return }
                historyCount = state.entries.count
                emit("history-count \(state.entries.count)")
            },
        ]
    }

    /// `selected …` and `detail …` whenever the selected or shown album changes; after each shown
    /// album, where its Play button ended up once laid out.
    static func reportSelection(library: LibraryStore, detail: AlbumDetailStore, window: UnsafeMutablePointer<GtkWidget>,
                                grid: UnsafeMutablePointer<GtkWidget>, playButton: UnsafeMutablePointer<GtkWidget>) -> [ObservationToken] {
        var selected: Int64??
        var shown: Int64??
        var reportedGrid = false
        return [
            library.state.subscribe(initial: true) { state in
                if state.phase == .loaded, !reportedGrid {
                    reportedGrid = true
                    reportPoint("grid-origin", of: grid, x: 0, y: 0, in: window)
                }
                guard selected != .some(state.selectedAlbumID) else { return }
                selected = .some(state.selectedAlbumID)
                emit("selected \(state.selectedAlbumID.map(String.init) ?? "none")")
            },
            detail.state.subscribe(initial: true) { state in
                let id = state.album?.id
                guard shown != .some(id) else { return }
                shown = .some(id)
                emit("detail \(id.map(String.init) ?? "none")")
                if id != nil { reportPoint("play-button", of: playButton, in: window) }
            },
        ]
    }

    /// Prints `NAME X Y`: a point of `widget` (its centre by default) in `window`'s coordinates,
    /// once layout has settled (an animation may still be moving it).
    static func reportPoint(_ name: String, of widget: UnsafeMutablePointer<GtkWidget>, x: Double? = nil, y: Double? = nil,
                                    in window: UnsafeMutablePointer<GtkWidget>) {
        // Held until measured: the widget may be replaced (and freed) meanwhile.
        g_object_ref(UnsafeMutableRawPointer(widget))
        g_object_ref(UnsafeMutableRawPointer(window))
        Task { @MainActor in
            defer {
                g_object_unref(UnsafeMutableRawPointer(widget))
                g_object_unref(UnsafeMutableRawPointer(window))
            }
            try? await Task.sleep(for: .milliseconds(700))
            guard gtk_widget_get_root(widget) != nil else { return }
            var local = graphene_point_t(
                x: Float(x ?? Double(gtk_widget_get_width(widget)) / 2),
                y: Float(y ?? Double(gtk_widget_get_height(widget)) / 2))
            var point = graphene_point_t()
            guard gtk_widget_compute_point(widget, window, &local, &point) != 0 else { return }
            emit("\(name) \(Int(point.x)) \(Int(point.y))")
        }
    }

    /// `min-width NAME N` for each widget: the narrowest it can be laid out (a part wider than
    /// 360 px makes the window wider than a phone).
    static func reportMinimumWidths(_ widgets: [(String, UnsafeMutablePointer<GtkWidget>)]) {
        for (name, widget) in widgets {
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
            emit("min-width \(name) \(minimum)")
        }
    }

    /// `progress-card-sizes W×H …`: the card's natural size in each state of a scan (short and
    /// long messages, spinner and artwork, with and without a count). All must be equal.
    static func reportCardHeights(_ view: ScanProgressView) {
        var states: [ScanState] = []
        var state = ScanState()
        state.phase = .identifying
        state.message = ScanStore.identifyingMessage
        state.file = URL(fileURLWithPath: "/photos/a.jpg")
        states.append(state)
        state.total = 3
        state.position = 2
        state.message = ScanStore.searchingMessage
        state.file = URL(fileURLWithPath: "/photos/a photo with a very long file name taken at the record fair.jpg")
        states.append(state)
        let album = Album(title: L10n.tr("An Album With A Title Long Enough To Wrap Over Several Lines Of The Card"), artist: "Some Artist With A Long Name")
        state.phase = .identified(album)
        state.message = "We found \(album.title) by \(album.artist)"
        states.append(state)
        state.phase = .loadingReview(album)
        state.message = ScanStore.reviewMessage
        states.append(state)
        let sizes = states.map { state -> String in
            view.render(state)
            var minimum: Int32 = 0, width: Int32 = 0, height: Int32 = 0
            gtk_widget_measure(view.card, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &width, nil, nil)
            gtk_widget_measure(view.card, GTK_ORIENTATION_VERTICAL, width, &minimum, &height, nil, nil)
            return "\(width)x\(height)"
        }
        view.render(ScanState())
        g_object_ref_sink(view.widget)
        g_object_unref(view.widget)
        emit("progress-card-sizes \(sizes.joined(separator: " "))")
    }

    /// `history-selected N` (or `none`) whenever the History selection moves.
    static func historySelection(_ position: Int?) {
        emit("history-selected \(position.map(String.init) ?? "none")")
    }

    /// A free-form event line.
    static func note(_ line: String) {
        emit(line)
    }

    /// `toast TITLE` for every toast shown.
    static func toast(_ title: String) {
        emit("toast \(title)")
    }

    /// Straight to the file descriptor: stdout is a pipe here, and a buffered line would arrive late.
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
