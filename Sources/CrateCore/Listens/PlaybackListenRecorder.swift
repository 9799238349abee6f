import Foundation

/// Turns what the playback bar shows into listen events: "playing now" when a track starts, a
/// listen once it has played long enough (`ListenRule`, counted on `clock` while it plays).
///
/// A timer on the clock fires at the moment the track becomes a listen, so no position update
/// has to arrive then. The same track played again straight after itself is not told apart
/// (the player reports no new entry for it).
@MainActor
public final class PlaybackListenRecorder {
    private let clock: PlaybackClock
    private let onEvent: @MainActor (ListenEvent) -> Void
    private var tracker = ListenTracker()
    private var timer: ClockTimer?
    private var token: ObservationToken?
    /// What the last state said: position updates alone change nothing here.
    private var last: (key: String, status: PlayerState.Status)?

    public init(state: ObservableValue<PlaybackState>, clock: PlaybackClock, onEvent: @escaping @MainActor (ListenEvent) -> Void) {
        self.clock = clock
        self.onEvent = onEvent
        token = state.subscribe(initial: true) { [weak self] state in self?.observe(state) }
    }

    /// One state of the playback bar.
    public func observe(_ state: PlaybackState) {
        let now = clock.date
        guard state.status != .stopped, let album = state.nowPlayingAlbum, let track = state.nowPlayingTrack else {
            finish(at: now)
            return
        }
        let key = "\(album.id ?? 0)/\(track.disc)/\(track.position)"
        if let last, last.key == key, last.status == state.status, tracker.currentKey == key { return }
        last = (key, state.status)
        if key != tracker.currentKey {
            finish(at: now)
            for event in tracker.begin(key: key, track: ListenTrack(track: track, album: album), at: now) { onEvent(event) }
        }
        if state.status == .paused { tracker.pause(at: now) } else { tracker.resume(at: now) }
        schedule()
    }

    private func schedule() {
        timer?.cancel()
        timer = nil
        guard let wait = tracker.msUntilListen(at: clock.date) else { return }
        timer = clock.schedule(afterMs: wait) { [weak self] in
            guard let self else { return }
            if let event = self.tracker.check(at: self.clock.date) { self.onEvent(event) }
        }
    }

    /// The followed track is over: its listen if due (the timer may not have fired yet).
    private func finish(at date: Date) {
        last = nil
        if let event = tracker.check(at: date) { onEvent(event) }
        tracker.end()
        timer?.cancel()
        timer = nil
    }
}
