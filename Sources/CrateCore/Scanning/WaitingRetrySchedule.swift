import Foundation

/// When photos that wait for the network (or for a service's pause) are tried again without
/// anyone pressing Try Now: first after `first`, then twice as long each time a try leaves as
/// many waiting as before, up to `longest`; a try that scanned some, a network that came back,
/// or nothing left waiting starts over.
public struct WaitingRetrySchedule: Equatable, Sendable {
    public static let first: TimeInterval = 30
    public static let longest: TimeInterval = 15 * 60

    /// How long until the next try.
    public private(set) var delay: TimeInterval = Self.first
    /// How many photos waited when the last try was made (nil: none made since a reset).
    private var waitingAtLastTry: Int?

    public init() {}

    /// The time has come with `waiting` photos waiting: true when a try should be made now.
    public mutating func due(waiting: Int) -> Bool {
        guard waiting > 0 else {
            reset()
            return false
        }
        if let before = waitingAtLastTry, waiting >= before {
            delay = min(delay * 2, Self.longest)
        } else if waitingAtLastTry != nil {
            delay = Self.first
        }
        waitingAtLastTry = waiting
        return true
    }

    /// The network came back, or nothing waits: the next try comes soon again.
    public mutating func reset() {
        delay = Self.first
        waitingAtLastTry = nil
    }
}
