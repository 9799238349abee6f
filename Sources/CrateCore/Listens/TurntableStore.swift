import Foundation

/// "Spin This Record" in the window: follows the record on the user's turntable with a
/// `TurntableSession` (as `crate spin` does), publishes where the needle is for the turntable bar
/// and MPRIS, and hands each track's "playing now" and listen to `onEvent` (the listen services).
/// Nothing plays through the speakers.
@MainActor
public final class TurntableStore {
    public struct State: Equatable, Sendable {
        public enum Phase: Equatable, Sendable {
            /// No record on the turntable.
            case idle
            case playing, paused
            /// A side ran out; the record waits to be turned over (`nextSide`).
            case sideOver
            /// The last side ran out.
            case finished
        }

        public var phase: Phase = .idle
        public var album: Album?
        /// The side playing, or the one that just ran out.
        public var side: String?
        /// The side to turn to, at a side's end.
        public var nextSide: String?
        public var track: Track?
        public var positionMs = 0
        public var durationMs = 0
        /// Why the record could not be followed (no track list, no such album).
        public var message: String?

        public init() {}

        /// A record is on the turntable (the bar shows, MPRIS follows it).
        public var isActive: Bool { phase != .idle }

        /// The same moment as the playback bar and MPRIS read playback.
        public var playback: PlaybackState {
            var state = PlaybackState()
            switch phase {
            case .playing: state.status = .playing
            case .paused, .sideOver: state.status = .paused
            case .idle, .finished: state.status = .stopped
            }
            state.nowPlayingAlbum = album
            state.nowPlayingTrack = phase == .playing || phase == .paused ? track : nil
            state.positionMs = positionMs
            state.durationMs = durationMs
            return state
        }
    }

    public let state = ObservableValue(State())
    private let database: AppDatabase
    private let clock: PlaybackClock
    private let progressIntervalMs: Int
    private let onEvent: @MainActor (ListenEvent) -> Void
    private var session: TurntableSession?
    private var sessionToken: ObservationToken?
    private var progress: ClockTimer?
    /// Bumped by every spin and stop: an album still loading for an older spin is dropped.
    private var request = 0

    public init(database: AppDatabase, clock: PlaybackClock, progressIntervalMs: Int = 1_000,
                onEvent: @escaping @MainActor (ListenEvent) -> Void) {
        self.database = database
        self.clock = clock
        self.progressIntervalMs = max(50, progressIntervalMs)
        self.onEvent = onEvent
    }

    // MARK: - Intents

    /// Puts the needle on the first track of `side` (the record's first side when nil).
    public func spin(albumID: Int64, side: String? = nil) async {
        stop()
        request += 1
        let current = request
        let database = self.database
        let loaded = await Task.detached { () -> Result<(Album, [Track]), Error> in
            Result {
                guard let album = try database.album(id: albumID) else { throw PlaybackError.albumNotFound(albumID) }
                return (album, try database.tracks(forAlbum: albumID))
            }
        }.value
        guard current == request else { return }
        do {
            let (album, tracks) = try loaded.get()
            let session = TurntableSession(album: album, tracks: tracks, clock: clock) { [weak self] event in self?.onEvent(event) }
            self.session = session
            sessionToken = session.state.subscribe { [weak self] _ in self?.publish() }
            state.set(State())
            state.update { $0.album = album }
            try session.start(side: side)
        } catch {
            stop()
            state.update { $0.message = UserMessage.text(for: error) }
        }
    }

    /// Pause and resume; at a side's end, the record was turned over: the next side plays.
    public func togglePlay() {
        guard let session else { return }
        switch state.value.phase {
        case .playing: session.pause()
        case .paused: session.resume()
        case .sideOver: flip()
        case .idle, .finished: break
        }
    }

    /// The record was turned over: the side after the one that ran out plays.
    public func flip() {
        guard let session else { return }
        do {
            try session.flip()
        } catch {
            state.update { $0.message = UserMessage.text(for: error) }
        }
    }

    /// The needle lifted to the next track (a listen only if this one already counted).
    public func skip() {
        session?.skip()
    }

    /// The record is off the turntable.
    public func stop() {
        request += 1
        progress?.cancel()
        progress = nil
        sessionToken = nil
        session?.stop()
        session = nil
        state.set(State())
    }

    // MARK: - Following the session

    private func publish() {
        guard let session else { return }
        progress?.cancel()
        progress = nil
        state.update {
            $0.message = nil
            $0.nextSide = nil
            switch session.state.value {
            case .idle, .stopped:
                $0.phase = .idle
            case .playing(let side, _, let paused):
                $0.phase = paused ? .paused : .playing
                $0.side = side
            case .sideFinished(let side, let next):
                $0.phase = .sideOver
                $0.side = side
                $0.nextSide = next
            case .finished:
                $0.phase = .finished
            }
            $0.track = session.currentTrack
            $0.positionMs = session.positionMs
            $0.durationMs = session.currentDurationMs
        }
        if state.value.phase == .playing { scheduleProgress() }
    }

    /// The position, once a second while the needle is down (the bar's progress and MPRIS).
    private func scheduleProgress() {
        progress = clock.schedule(afterMs: progressIntervalMs) { [weak self] in
            guard let self, let session = self.session, self.state.value.phase == .playing else { return }
            self.state.update { $0.positionMs = session.positionMs }
            self.scheduleProgress()
        }
    }
}
