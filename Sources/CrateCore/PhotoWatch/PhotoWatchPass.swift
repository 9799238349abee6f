import Foundation

/// What one look at a watched folder did.
public struct PhotoWatchPass: Equatable, Sendable {
    /// Photos this process queued, in name order.
    public var arrivals: [WatchedArrival] = []
    /// Finished photos whose bytes were taken before (a copy, or another process was first).
    public var duplicates = 0
    /// Candidate files not finished yet (still growing, or seen once).
    public var waiting = 0

    public init(arrivals: [WatchedArrival] = [], duplicates: Int = 0, waiting: Int = 0) {
        self.arrivals = arrivals
        self.duplicates = duplicates
        self.waiting = waiting
    }
}
