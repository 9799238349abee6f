/// A page's latest state, held back until the page is live: shown, or the start-up has settled.
/// A grid view builds and binds `max-columns` × 30 cells and a list view 200 rows whatever their
/// height, which cost the first page ~100 ms each on pages nobody was looking at.
@MainActor
final class HeldUntilLive<State> {
    private(set) var isLive = false
    private var held: State?
    /// Whether the window shows the page now.
    var isVisible: () -> Bool = { false }

    /// True when `state` may be rendered now; otherwise it is kept for `makeLive`. A page not yet
    /// live becomes live when it is rendered while visible.
    func admit(_ state: State) -> Bool {
        if isLive { return true }
        if isVisible() {
            isLive = true
            return true
        }
        held = state
        return false
    }

    /// Keeps `state` for `makeLive` without making the page live.
    func hold(_ state: State) {
        held = state
    }

    /// Forgets the held state: one rendered anyway (a failure) is newer than it.
    func drop() {
        held = nil
    }

    /// The page is live from now on; returns the state that waited for it, if any.
    func makeLive() -> State? {
        guard !isLive else { return nil }
        isLive = true
        defer { held = nil }
        return held
    }
}
