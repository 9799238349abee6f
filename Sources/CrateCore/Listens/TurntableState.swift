import Foundation

/// Where the record on the turntable is.
public enum TurntableState: Equatable, Sendable {
    case idle
    /// `track` of `side` is playing (or paused) since `trackStartedAt`.
    case playing(side: String, track: Int, paused: Bool)
    /// The side ran out; `next` is the side to flip to (nil: it was the last one).
    case sideFinished(side: String, next: String?)
    /// The last side ran out.
    case finished
    case stopped
}
