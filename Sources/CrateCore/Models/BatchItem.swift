import Foundation

/// Where a queued photo stands in a bulk scan.
public enum BatchItemState: String, Codable, Sendable {
    /// Waiting (or interrupted mid-scan): picked up by the next run.
    case pending
    /// Scanned; `scanID` is the saved scan (nil only if that scan was deleted since).
    case done
    /// Not identified, unreadable, or failing every time; `error` says why.
    case failed
}

/// One photo in the bulk-scan queue (`batch_item`). The photo itself is never copied.
public struct BatchItem: Identifiable, Equatable, Sendable {
    public var id: Int64?
    public var path: String
    public var state: BatchItemState
    public var scanID: Int64?
    public var error: String?
    /// How many runs have started on this item.
    public var attempts: Int
    public var addedAt: Date
    public var updatedAt: Date

    public init(id: Int64? = nil, path: String, state: BatchItemState = .pending, scanID: Int64? = nil, error: String? = nil,
                attempts: Int = 0, addedAt: Date, updatedAt: Date) {
        self.id = id
        self.path = path
        self.state = state
        self.scanID = scanID
        self.error = error
        self.attempts = attempts
        self.addedAt = addedAt
        self.updatedAt = updatedAt
    }
}

/// How many queued photos are in each state.
public struct BatchCounts: Equatable, Sendable {
    public var pending: Int
    public var done: Int
    public var failed: Int

    public init(pending: Int = 0, done: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.done = done
        self.failed = failed
    }

    public var total: Int { pending + done + failed }
}
