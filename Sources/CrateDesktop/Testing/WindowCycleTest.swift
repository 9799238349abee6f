import CGtk
import CrateCore
import Foundation
import Synchronization

/// `CrateDesktop --window-cycle-test N`: opens and closes a `SpareWindow` N times, then exits 1 if
/// anything grew: boxes, scopes, sources or kept objects (`LiveObjects`), the detail store's
/// subscribers, windows released on the Swift side, or widgets never finalised. (GObject's own
/// instance counts need a debug build of GLib, so every widget in the window is tagged instead.)
@MainActor
enum WindowCycleTest {
    /// Cycles before the baseline, so GTK's one-time caches (CSS, icons, fonts) are already filled.
    static let warmUpCycles = 5
    /// Allowed resident-memory growth: allocator noise, not a leak (a leaked window is ~100 KB).
    static let rssAllowance = 4 << 20

    nonisolated private static let finalizedWindows = Atomic<Int>(0)
    nonisolated private static let releasedWindows = Atomic<Int>(0)
    nonisolated private static let finalizedWidgets = Atomic<Int>(0)
    private static var taggedWidgets = 0

    static func start(app: CrateApplication, cycles: Int) {
        Task { @MainActor in
            let passed = await run(app: app, cycles: cycles)
            print(passed ? "window-cycle-test: PASSED" : "window-cycle-test: FAILED")
            app.quit(status: passed ? 0 : 1)
        }
    }

    // MARK: - Private

    private struct Measurement {
        var live: LiveObjects.Snapshot
        var subscribers: Int
        var finalized: Int
        var released: Int
        /// Widgets inside the spare windows: tagged when closed, and finalised since.
        var widgets: Int
        var widgetsFinalized: Int
        var rss: Int
    }

    private static func run(app: CrateApplication, cycles: Int) async -> Bool {
        // The work a window leaves until its first page is up starts now, as it did with the
        // stores before there was a start-up queue; then the main window maps and loads first.
        app.window?.startup.settle("window cycle test")
        await pause(milliseconds: 300)
        for _ in 0..<warmUpCycles { await cycle(app: app) }
        let before = await settled(app: app, opened: warmUpCycles, baseline: nil)
        for _ in 0..<cycles { await cycle(app: app) }
        let after = await settled(app: app, opened: warmUpCycles + cycles, baseline: before)
        report("before", before)
        report("after \(cycles) cycles", after)
        var failures: [String] = []
        if after.live != before.live { failures.append("live objects grew: \(before.live) → \(after.live)") }
        let unfinalized = (before: before.widgets - before.widgetsFinalized, after: after.widgets - after.widgetsFinalized)
        if unfinalized.after > unfinalized.before { failures.append("widgets never finalised grew: \(unfinalized.before) → \(unfinalized.after)") }
        if after.subscribers > before.subscribers { failures.append("detail store subscribers grew: \(before.subscribers) → \(after.subscribers)") }
        if after.finalized - before.finalized != cycles { failures.append("finalised \(after.finalized - before.finalized) of \(cycles) windows") }
        if after.released - before.released != cycles { failures.append("released \(after.released - before.released) of \(cycles) Swift windows") }
        if after.rss - before.rss > rssAllowance { failures.append("resident memory grew by \((after.rss - before.rss) >> 10) KB") }
        for failure in failures { print("window-cycle-test: \(failure)") }
        return failures.isEmpty
    }

    /// Opens a window, lets it map and start its timers, closes it.
    private static func cycle(app: CrateApplication) async {
        let window = SpareWindow(detail: app.model?.detail, dropTarget: app.window) {
            WindowCycleTest.releasedWindows.add(1, ordering: .relaxed)
        }
        // Object data is dropped at finalisation, after dispose: this proves the GObject went.
        g_object_set_data_full(crate_object(window.widget), "crate-window-cycle", UnsafeMutableRawPointer(bitPattern: 1)) { _ in
            WindowCycleTest.finalizedWindows.add(1, ordering: .relaxed)
        }
        gtk_window_present(crate_window(window.widget))
        window.exercise()
        await pause(milliseconds: 40)
        tagWidgets(in: window.widget)
        gtk_window_destroy(crate_window(window.widget))
        await pause(milliseconds: 10)
    }

    /// Waits (up to 3 s) until every opened window is finalised and, after the baseline, the live
    /// counts and unfinalised widgets are back to it; then measures.
    private static func settled(app: CrateApplication, opened: Int, baseline: Measurement?) async -> Measurement {
        for _ in 0..<60 {
            let windowsGone = finalizedWindows.load(ordering: .relaxed) >= opened && releasedWindows.load(ordering: .relaxed) >= opened
            if windowsGone, let baseline {
                let unfinalized = taggedWidgets - finalizedWidgets.load(ordering: .relaxed)
                if LiveObjects.snapshot == baseline.live && unfinalized <= baseline.widgets - baseline.widgetsFinalized { break }
            } else if windowsGone {
                break
            }
            await pause(milliseconds: 50)
        }
        await pause(milliseconds: 100)
        return Measurement(
            live: LiveObjects.snapshot,
            subscribers: app.model?.detail.state.subscriberCount ?? 0,
            finalized: finalizedWindows.load(ordering: .relaxed),
            released: releasedWindows.load(ordering: .relaxed),
            widgets: taggedWidgets,
            widgetsFinalized: finalizedWidgets.load(ordering: .relaxed),
            rss: residentBytes())
    }

    /// Tags `widget` and everything inside it so its finalisation is counted.
    private static func tagWidgets(in widget: UnsafeMutablePointer<GtkWidget>) {
        taggedWidgets += 1
        g_object_set_data_full(crate_object(widget), "crate-window-cycle", UnsafeMutableRawPointer(bitPattern: 1)) { _ in
            WindowCycleTest.finalizedWidgets.add(1, ordering: .relaxed)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            tagWidgets(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    private static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func report(_ label: String, _ measurement: Measurement) {
        print("window-cycle-test: \(label): \(measurement.live); widgets finalised \(measurement.widgetsFinalized) of \(measurement.widgets); detail subscribers \(measurement.subscribers); windows finalised \(measurement.finalized), released \(measurement.released); RSS \(measurement.rss >> 10) KB")
    }

    private static func pause(milliseconds: Int) async {
        try? await Task.sleep(for: .milliseconds(milliseconds))
    }
}
