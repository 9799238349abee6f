/// Something that plays a queue of album tracks: the log-backed `LogPlayer` today, real audio later.
///
/// The queue always plays in the order it was loaded. There is deliberately no shuffle or repeat:
/// albums play whole, in canonical order (docs/decisions/0001-albums-play-whole-in-order.md), so the protocol gives no way to ask for either.
@MainActor
public protocol Player: AnyObject {
    /// What the player is doing now; subscribe to follow changes.
    var state: ObservableValue<PlayerState> { get }

    /// Replaces the queue and puts the cursor on `index`, stopped. Throws if `index` is outside it.
    func load(_ entries: [QueueEntry], startingAt index: Int) async throws
    /// Starts (or resumes) playback of the current entry.
    func play() async throws
    /// Pauses, keeping the position.
    func pause() async
    /// Stops; the position goes back to the start of the current entry.
    func stop() async
    /// Moves within the current entry to `positionMs`, clamped to the entry.
    func seek(toMs positionMs: Int) async
    /// Goes to the next entry; past the last one, the queue finishes.
    func next() async
    /// Goes to the previous entry, or to the start of the current one if it has played a while.
    func previous() async
}
