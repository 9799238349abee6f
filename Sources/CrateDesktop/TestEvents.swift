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
                guard state.phase == .loaded, state.albums.count != gridCount else { return }
                gridCount = state.albums.count
                emit("grid-count \(state.albums.count)")
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
    private static func reportPoint(_ name: String, of widget: UnsafeMutablePointer<GtkWidget>, x: Double? = nil, y: Double? = nil,
                                    in window: UnsafeMutablePointer<GtkWidget>) {
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(700))
            var local = graphene_point_t(
                x: Float(x ?? Double(gtk_widget_get_width(widget)) / 2),
                y: Float(y ?? Double(gtk_widget_get_height(widget)) / 2))
            var point = graphene_point_t()
            guard gtk_widget_compute_point(widget, window, &local, &point) != 0 else { return }
            emit("\(name) \(Int(point.x)) \(Int(point.y))")
        }
    }

    /// `toast TITLE` for every toast shown.
    static func toast(_ title: String) {
        emit("toast \(title)")
    }

    /// Straight to the file descriptor: stdout is a pipe here, and a buffered line would arrive late.
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
