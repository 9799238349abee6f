import Foundation

/// Follows one track at a time and says when it becomes a listen.
///
/// Time played is counted on the clock while the track plays (not from the position), so a pause
/// stops the count and a seek neither earns nor loses a listen. Pure and clock-agnostic: the
/// caller passes the time of each observation and asks `msUntilListen` when to look again.
public struct ListenTracker: Sendable {
    private struct Play: Sendable {
        var key: String
        var track: ListenTrack
        var startedAt: Date
        var playedMs: Int
        /// When the current stretch of playing began; nil while paused.
        var runningSince: Date?
        var counted: Bool
    }

    private var play: Play?

    public init() {}

    /// A new track starts playing at `date` (a new `key`: the same track played again is a new key).
    public mutating func begin(key: String, track: ListenTrack, at date: Date) -> [ListenEvent] {
        play = Play(key: key, track: track, startedAt: date, playedMs: 0, runningSince: date, counted: false)
        return [.playingNow(track)]
    }

    /// The key of the track followed, if any.
    public var currentKey: String? { play?.key }

    public mutating func pause(at date: Date) {
        guard var current = play, let since = current.runningSince else { return }
        current.playedMs += Self.ms(from: since, to: date)
        current.runningSince = nil
        play = current
    }

    public mutating func resume(at date: Date) {
        guard play != nil, play?.runningSince == nil else { return }
        play?.runningSince = date
    }

    /// Nothing plays any more (stopped, or the queue ended).
    public mutating func end() { play = nil }

    /// Milliseconds played by `date`.
    public func playedMs(at date: Date) -> Int {
        guard let play else { return 0 }
        return play.playedMs + (play.runningSince.map { Self.ms(from: $0, to: date) } ?? 0)
    }

    /// The listen, once the track has played long enough; reported once per play.
    public mutating func check(at date: Date) -> ListenEvent? {
        guard let current = play, !current.counted,
              ListenRule.isListen(playedMs: playedMs(at: date), durationMs: current.track.durationMs) else { return nil }
        play?.counted = true
        return .listen(current.track, listenedAt: current.startedAt)
    }

    /// How long until the track becomes a listen if it keeps playing; nil when it never will
    /// (too short, already counted, paused or nothing playing).
    public func msUntilListen(at date: Date) -> Int? {
        guard let play, !play.counted, play.runningSince != nil,
              let threshold = ListenRule.thresholdMs(durationMs: play.track.durationMs) else { return nil }
        return max(0, threshold - playedMs(at: date))
    }

    private static func ms(from start: Date, to end: Date) -> Int {
        max(0, Int((end.timeIntervalSince(start) * 1000).rounded()))
    }
}
