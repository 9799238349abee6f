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
        return [
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

    /// Straight to the file descriptor: stdout is a pipe here, and a buffered line would arrive late.
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
