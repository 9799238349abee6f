/// A player's observable state.
public struct PlayerState: Equatable, Sendable {
    /// The three things a player can be doing. Nothing here can shuffle or repeat.
    public enum Status: String, Equatable, Sendable, Codable {
        case stopped
        case playing
        case paused
    }

    public var status: Status = .stopped
    /// Index of the current entry in the loaded queue, or nil when nothing is loaded or the queue ran out.
    public var currentIndex: Int?
    /// The current entry, so observers can map it back to its album without the queue.
    public var currentEntry: QueueEntry?
    /// Position within the current entry.
    public var positionMs: Int = 0
    /// Length of the current entry.
    public var durationMs: Int = 0
    /// Number of entries in the loaded queue.
    public var queueCount: Int = 0
    /// True when playback ran past the last entry (as opposed to the user pressing stop).
    public var finishedQueue: Bool = false
    /// The last thing that went wrong while playing ("… skipped to the next track"), for the user.
    public var problem: String?

    public init() {}
}

extension PlayerState {
    /// The state after playback ran off the end of a queue of `queueCount` entries.
    static func finished(queueCount: Int) -> PlayerState {
        var state = PlayerState()
        state.queueCount = queueCount
        state.finishedQueue = true
        return state
    }
}
