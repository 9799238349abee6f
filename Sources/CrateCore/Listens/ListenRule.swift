import Foundation

/// When a play becomes a listen — ListenBrainz's and Last.fm's shared rule: the track is at least
/// 30 seconds long and has played for half its length or 4 minutes, whichever comes first.
public enum ListenRule {
    /// Tracks shorter than this are never listens.
    public static let minimumTrackMs = 30_000
    /// Four minutes of play are always enough.
    public static let cappedMs = 240_000

    /// How long a track of `durationMs` must play before it is a listen; nil when it never is.
    /// A length nobody knows counts as long: the 4 minutes apply.
    public static func thresholdMs(durationMs: Int?) -> Int? {
        guard let durationMs else { return cappedMs }
        guard durationMs >= minimumTrackMs else { return nil }
        // Half, rounded up, so a 30 001 ms track needs 15 001 ms, never a millisecond less.
        return min((durationMs + 1) / 2, cappedMs)
    }

    /// Whether `playedMs` of a track of `durationMs` make a listen.
    public static func isListen(playedMs: Int, durationMs: Int?) -> Bool {
        guard let threshold = thresholdMs(durationMs: durationMs) else { return false }
        return playedMs >= threshold
    }
}
