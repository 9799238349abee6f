import Foundation

/// What a play produced for the listen services.
public enum ListenEvent: Equatable, Sendable {
    /// The track started: announce it as "playing now" (never queued).
    case playingNow(ListenTrack)
    /// The track played long enough (`ListenRule`): a listen dated by its start.
    case listen(ListenTrack, listenedAt: Date)
}
