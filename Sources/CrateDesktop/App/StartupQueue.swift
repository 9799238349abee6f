import CGtk
import Foundation

/// Work the window leaves until its first page is on screen: the music folders' index, the
/// library's integrity check, a new wall, the repair pass. On two cores, anything started
/// together with the first page shares the cores with it (and with GTK's first frames), so it
/// waits until the first covers (or the wall) are shown, or `fallback` after the window maps,
/// whichever comes first (an empty crate shows no covers).
@MainActor
final class StartupQueue {
    private var waiting: [(name: String, work: @MainActor () -> Void)] = []
    private(set) var isSettled = false
    private var pendingReason: String?
    private var isWatchingFrames = false
    private var fallbackSource: GObjectScope.Source?
    /// The mapped window's scope (its sources end with it).
    private weak var scope: GObjectScope?
    /// After the window maps, the longest wait for the first page.
    static let fallback: UInt32 = 1500

    /// Runs `work` once the start-up has settled (at once when it already has).
    func later(_ name: String, _ work: @escaping @MainActor () -> Void) {
        if isSettled { work() } else { waiting.append((name, work)) }
    }

    /// The first page is on screen (`reason` for CRATE_TIMING): runs what waited, in order, each
    /// from its own main-loop turn at idle priority so a frame due meanwhile goes first.
    func settle(_ reason: String) {
        guard !isSettled else { return }
        isSettled = true
        // Settled before the fallback: its clock is no longer needed.
        if let fallbackSource {
            scope?.remove(fallbackSource)
            self.fallbackSource = nil
        }
        StartupTiming.mark("start-up settled (\(reason)) after \(StartupTiming.framesPainted) frames")
        if StartupTiming.isEnabled, let scope {
            // A window at rest paints nothing: frames here mean something animates unseen.
            let before = StartupTiming.framesPainted
            scope.every(milliseconds: 2000) {
                StartupTiming.mark("frames painted in the 2 s after settling: \(StartupTiming.framesPainted - before)")
                return false
            }
        }
        let work = waiting
        waiting = []
        for item in work {
            let box = CallbackBox.retain(item.work)
            g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
                guard let data else { return 0 }
                let work = CallbackBox<@MainActor () -> Void>.take(data)
                MainActor.assumeIsolated { work() }
                return 0
            }, box, nil)
        }
    }

    /// Settles after the next frame is painted (what the page shows now is then on screen).
    func settleAfterNextFrame(_ reason: String) {
        guard !isSettled else { return }
        pendingReason = pendingReason ?? reason
    }

    /// Called when the window maps: follows its frames (for `settleAfterNextFrame` and the
    /// CRATE_TIMING frame marks) and starts the fallback clock.
    func windowMapped(_ window: UnsafeMutablePointer<GtkWidget>) {
        let scope = GObjectScope.of(window)
        self.scope = scope
        if !isWatchingFrames, let clock = gtk_widget_get_frame_clock(window) {
            isWatchingFrames = true
            scope.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in
                StartupTiming.framePainted()
                guard let self, let reason = self.pendingReason else { return }
                self.pendingReason = nil
                self.settle(reason)
            }
        }
        guard !isSettled, fallbackSource == nil else { return }
        fallbackSource = scope.every(milliseconds: Self.fallback) { [weak self] in
            self?.fallbackSource = nil
            self?.settle("fallback after mapping")
            return false
        }
    }
}
