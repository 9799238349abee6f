import Foundation

/// The record on the turntable: Crate hears nothing, so it walks the release's track list against
/// a clock instead, announcing each track as "playing now" and reporting it as a listen once its
/// time has passed (`ListenRule`). Playback stops at the end of each side until the record is
/// flipped (`flip()`), as a real one does. Nothing is played through the speakers.
///
/// The clock is injected: tests walk a whole LP in microseconds on `ManualPlaybackClock`.
@MainActor
public final class TurntableSession {
    public let state = ObservableValue(TurntableState.idle)
    public let album: Album
    public let sides: [RecordSide]
    /// A track whose length nobody knows is taken to last this long.
    public static let assumedTrackMs = 180_000

    private let clock: PlaybackClock
    private let onEvent: @MainActor (ListenEvent) -> Void
    private var tracker = ListenTracker()
    private var sideIndex = 0
    private var trackIndex = 0
    private var listenTimer: ClockTimer?
    private var endTimer: ClockTimer?
    /// Bumped by every new track so a timer of an old one does nothing.
    private var play = 0

    public init(album: Album, tracks: [Track], clock: PlaybackClock, onEvent: @escaping @MainActor (ListenEvent) -> Void) {
        self.album = album
        self.sides = RecordSide.sides(of: tracks)
        self.clock = clock
        self.onEvent = onEvent
    }

    /// Puts the needle on the first track of `side` (the first side when nil).
    public func start(side name: String? = nil) throws(TurntableError) {
        guard !sides.isEmpty else { throw .noTracks }
        let index: Int
        if let name {
            guard let found = sides.firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw .unknownSide(name, known: sides.map(\.name))
            }
            index = found
        } else {
            index = 0
        }
        finishTrack()
        sideIndex = index
        startTrack(0)
    }

    /// Turns the record over: the side after the one that ran out (or the one playing).
    public func flip() throws(TurntableError) {
        let next = sideIndex + 1
        guard next < sides.count else { throw .noMoreSides }
        try start(side: sides[next].name)
    }

    public func pause() {
        guard case .playing(let side, let track, false) = state.value else { return }
        tracker.pause(at: clock.date)
        cancelTimers()
        state.set(.playing(side: side, track: track, paused: true))
    }

    public func resume() {
        guard case .playing(let side, let track, true) = state.value else { return }
        tracker.resume(at: clock.date)
        state.set(.playing(side: side, track: track, paused: false))
        schedule()
    }

    /// Lifts the needle to the next track (a listen only if this one already counted).
    public func skip() {
        guard case .playing = state.value else { return }
        finishTrack()
        advance()
    }

    public func stop() {
        finishTrack()
        state.set(.stopped)
    }

    /// How far into the current track the needle is (what has played of it), 0 with none.
    public var positionMs: Int {
        guard case .playing = state.value else { return 0 }
        return tracker.playedMs(at: clock.date)
    }

    /// The current track's length as the session walks it (a track of unknown length is taken
    /// to last `assumedTrackMs`).
    public var currentDurationMs: Int {
        currentTrack.map { $0.durationMs ?? Self.assumedTrackMs } ?? 0
    }

    /// The track playing (or paused) now, if any.
    public var currentTrack: Track? {
        guard case .playing = state.value else { return nil }
        return sides[sideIndex].tracks[trackIndex]
    }

    // MARK: - Private

    private func startTrack(_ index: Int) {
        trackIndex = index
        play += 1
        let track = sides[sideIndex].tracks[index]
        state.set(.playing(side: sides[sideIndex].name, track: index, paused: false))
        for event in tracker.begin(key: "\(play)", track: ListenTrack(track: track, album: album), at: clock.date) { onEvent(event) }
        schedule()
    }

    /// Timers for this track's listen and its end, from what is left of each.
    private func schedule() {
        cancelTimers()
        let current = play
        let now = clock.date
        if let wait = tracker.msUntilListen(at: now) {
            listenTimer = clock.schedule(afterMs: wait) { [weak self] in
                guard let self, self.play == current else { return }
                if let event = self.tracker.check(at: self.clock.date) { self.onEvent(event) }
            }
        }
        let length = sides[sideIndex].tracks[trackIndex].durationMs ?? Self.assumedTrackMs
        endTimer = clock.schedule(afterMs: max(0, length - tracker.playedMs(at: now))) { [weak self] in
            guard let self, self.play == current else { return }
            self.finishTrack()
            self.advance()
        }
    }

    /// Reports a listen that is due (a timer at the same instant may not have fired yet) and
    /// forgets the track.
    private func finishTrack() {
        if let event = tracker.check(at: clock.date) { onEvent(event) }
        tracker.end()
        cancelTimers()
        play += 1
    }

    private func advance() {
        if trackIndex + 1 < sides[sideIndex].tracks.count {
            startTrack(trackIndex + 1)
        } else if sideIndex + 1 < sides.count {
            state.set(.sideFinished(side: sides[sideIndex].name, next: sides[sideIndex + 1].name))
        } else {
            state.set(.finished)
        }
    }

    private func cancelTimers() {
        listenTimer?.cancel()
        endTimer?.cancel()
        listenTimer = nil
        endTimer = nil
    }
}
