import CGtk
import CrateCore
import Foundation

/// Puts a new list of tiles into a flow box touching only the places that change (see
/// `TilePlan`): tiles that stayed keep their widgets (a click on one is never lost, focus and
/// scroll position stay), changed places show their new album in the same widget, "more"
/// appends, a ✕ removes that one tile.
@MainActor
enum TileFlow {
    /// Applies `plan` to `views` (the flow box's children, in order) and returns the new views.
    /// `make` builds the view for a new place, `show` shows a place's new tile in a reused view.
    static func apply<View>(_ plan: TilePlan, to views: [View], in flow: UnsafeMutablePointer<GtkWidget>,
                            widget: (View) -> UnsafeMutablePointer<GtkWidget>,
                            make: (Int) -> View, show: (View, Int) -> Void) -> [View] {
        for index in plan.removed.reversed() { gtk_flow_box_remove(OpaquePointer(flow), widget(views[index])) }
        return plan.apply(to: views, make: { index in
            let view = make(index)
            gtk_flow_box_insert(OpaquePointer(flow), widget(view), Int32(index))
            return view
        }, rebind: show)
    }

    /// With `CRATE_TIMING`: how long applying a new list took, and until the next frame was
    /// painted with it (`timing: wall tiles applied (kept=… rebound=…) in 1.2 ms, painted after 9.8 ms`).
    static func reportTiming(_ name: String, plan: TilePlan, started: ContinuousClock.Instant, widget: UnsafeMutablePointer<GtkWidget>) {
        guard StartupTiming.isEnabled else { return }
        let applied = ContinuousClock.now - started
        let line = "\(name) tiles applied (\(plan.summary)) in \(format(applied))"
        guard gtk_widget_get_mapped(widget) != 0, let clock = gtk_widget_get_frame_clock(widget) else {
            StartupTiming.print(line)
            return
        }
        final class Handler { var id: gulong = 0 }
        let handler = Handler()
        handler.id = GSignal.connect(clock, "after-paint") {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler.id)
            StartupTiming.print("\(line), painted after \(format(ContinuousClock.now - started))")
        }
        gtk_widget_queue_draw(widget)
    }

    private static func format(_ duration: Duration) -> String {
        String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}
