/// What one repair pass did (see `ScanPipeline.repairPendingDetails`).
public struct RepairSummary: Sendable, Equatable {
    /// Albums the pass claimed and worked on.
    public var tried = 0
    /// Of those, albums whose track list and artwork are now settled (nothing left to fetch).
    public var completed = 0
    /// Why the pass stopped before running out of work, if it did (a service down or pausing us).
    public var stoppedEarly: String?

    public init(tried: Int = 0, completed: Int = 0, stoppedEarly: String? = nil) {
        self.tried = tried
        self.completed = completed
        self.stoppedEarly = stoppedEarly
    }
}
