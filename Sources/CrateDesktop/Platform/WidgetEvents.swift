import CGtk

/// What widgets say about themselves to whoever observes them: a line ("grid-filled 0+40"), or
/// where one of their parts is on screen. Nothing observes them in a normal run, so each call is a
/// check of one optional; the UI tests' hooks (Testing/WindowTestHooks) set the observer and turn
/// what they hear into the event lines the tests wait on.
@MainActor
enum WidgetEvents {
    enum Event {
        case line(String)
        /// A point of `widget` (its centre unless `x`/`y` say otherwise) in `window`'s coordinates.
        case point(name: String, widget: UnsafeMutablePointer<GtkWidget>, x: Double?, y: Double?, window: UnsafeMutablePointer<GtkWidget>)
    }

    /// Set by the test hooks; nil in a normal run.
    static var observer: ((Event) -> Void)?

    static var isObserved: Bool { observer != nil }

    static func say(_ line: @autoclosure () -> String) {
        guard let observer else { return }
        observer(.line(line()))
    }

    static func place(_ name: String, of widget: UnsafeMutablePointer<GtkWidget>, x: Double? = nil, y: Double? = nil,
                      in window: UnsafeMutablePointer<GtkWidget>) {
        observer?(.point(name: name, widget: widget, x: x, y: y, window: window))
    }
}
