import Foundation

/// The bulk-scan queue (docs/decisions/0006-bulk-scan-queue.md), kept in the library so it survives a kill.
///
/// Rules: an item is claimed by `next()` (or `claim(_:)`) for ONE process, under a lease that the
/// scan renews while it runs (`holding(_:_:)`), and becomes done only in the transaction that saves
/// its scan (`markDone`), so after a crash every item is either done with exactly one scan or still
/// pending with none. Another process never takes a photo whose holder is alive; a killed
/// holder's photo is picked up again by the next run.
public final class BatchQueue: Sendable {
    /// Runs that may start on one photo before it is skipped: a photo that crashes the scanner
    /// must not stop every later run.
    public static let defaultMaxAttempts = 3

    public let database: AppDatabase
    private let maxAttempts: Int
    private let lease: BatchLease

    public init(database: AppDatabase, maxAttempts: Int = BatchQueue.defaultMaxAttempts, lease: BatchLease = .standard) {
        self.database = database
        self.maxAttempts = max(1, maxAttempts)
        self.lease = lease
    }

    /// Why `file` cannot be queued — it does not exist, or is a folder, a device or a pipe — as a
    /// sentence; nil for an ordinary file (whether it is a usable JPEG is the scan's to say).
    public static func refusal(for file: URL) -> String? {
        ImageFile.problem(queueing: file.path)?.message
    }

    /// Queues photos by absolute path; a photo already waiting is not queued twice, but gets its
    /// tries back unless a live process is scanning it. Returns how many were added.
    @discardableResult
    public func enqueue(_ files: [URL]) throws -> Int {
        try database.enqueueBatch(paths: files.map { $0.standardizedFileURL.path })
    }

    /// The oldest pending photo no other live process holds, claimed for scanning; nil when
    /// there is none.
    public func next() throws -> BatchItem? {
        try database.claimNextBatchItem(maxAttempts: maxAttempts, leaseDuration: lease.seconds)
    }

    /// Fails the photos whose tries are used up (see `defaultMaxAttempts`) and returns them, so a
    /// run reports each one instead of passing over it in silence.
    public func failExhausted() throws -> [BatchItem] {
        try database.failExhaustedBatchItems(maxAttempts: maxAttempts)
    }

    /// Claims `file` for a scan started by the user (queued first if it is not waiting). Nil when
    /// another live process holds the photo: scan it without a queue item then.
    public func claim(_ file: URL) throws -> BatchItem? {
        try database.claimBatchItem(path: file.standardizedFileURL.path, leaseDuration: lease.seconds)
    }

    /// Runs `body` (the scan of `item`) while renewing this process's lease on it, so a long scan
    /// never lets another process take the photo. A renewal that fails is only logged: the save
    /// at the end checks the lease again and refuses a photo another process took.
    public func holding<T: Sendable>(_ item: BatchItem, _ body: () async throws -> T) async throws -> T {
        guard let id = item.id else { return try await body() }
        let database = self.database, lease = self.lease
        // A Dispatch timer rather than a task: renewals must not wait behind work that holds
        // Swift's small cooperative pool, or a busy process would lose its own photo.
        let renewal = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        renewal.schedule(deadline: .now() + lease.renewalSeconds, repeating: lease.renewalSeconds)
        renewal.setEventHandler {
            do {
                try database.renewBatchLease(id: id, leaseDuration: lease.seconds)
            } catch {
                Log.error("could not renew the claim on \(item.path): \(error.localizedDescription)")
            }
        }
        renewal.resume()
        defer { renewal.cancel() }
        return try await body()
    }

    /// Saves the scan of `item` and marks it done, atomically.
    @discardableResult
    public func markDone(_ item: BatchItem, album: Album, method: IdentificationMethod, confidence: Double? = nil) throws -> HistoryEntry {
        guard let id = item.id else { throw CrateError.notFound("The queued photo") }
        return try database.saveScan(of: album, method: method, confidence: confidence, completingBatchItem: id)
    }

    /// Records why a photo could not be scanned; it is not retried.
    public func markFailed(_ item: BatchItem, error message: String) throws {
        guard let id = item.id else { return }
        try database.failBatchItem(id: id, error: message)
    }

    /// Puts a claimed photo back untouched (the run stopped for a reason that is not the photo's).
    /// `reason` (for the user) says why it waits; History lists waiting photos that have one.
    public func release(_ item: BatchItem, reason: String? = nil) throws {
        guard let id = item.id else { return }
        try database.releaseBatchItem(id: id, reason: reason)
    }

    /// Settles a claimed item whose scan threw. Returns true when the failure belongs to the
    /// photo (not identified, unreadable): the item is failed and the next photo may go on.
    /// Otherwise (a wrong key, the network, a service asking for a pause, a full disk,
    /// cancellation) the item stays pending for
    /// the next run and false tells the caller to stop.
    ///
    /// Only a run that ends in the middle of work on the photo (a crash, a kill) counts toward
    /// the poison-photo limit: a server's error and the user's interrupt give the attempt back.
    @discardableResult
    public func settle(_ item: BatchItem, after error: Error) throws -> Bool {
        if ScanFailure.isServiceTrouble(error) {
            try release(item, reason: ScanFailure(error).message)
            return false
        }
        if let failure = error as? ScanFailure {
            switch failure {
            case .notIdentified, .badImage:
                try markFailed(item, error: failure.message)
                return true
            case .other:
                // Maybe the network, maybe this photo: keep the attempt counted, so a photo that
                // fails this way every time is skipped after a few runs.
                return false
            case .offline, .providerKey, .mustWait, .budgetUsedUp:
                // Not the photo's fault: it waits (History says why) and is tried again later.
                try release(item, reason: failure.message)
                return false
            case .cancelled:
                break
            }
        }
        if error is BatchQueueError { return true }  // finished or held elsewhere: nothing to undo
        try release(item, reason: ScanFailure(error) == .cancelled ? nil : ScanFailure(error).message)
        return false
    }

    /// Pending photos no other live process is scanning, in queue order (to resume them when the
    /// app starts; a second window must not resume the first one's photos).
    public func pendingFiles() throws -> [URL] {
        try database.unclaimedPendingBatchItems().map { URL(fileURLWithPath: $0.path) }
    }

    public func counts() throws -> BatchCounts {
        try database.batchCounts()
    }

    public func items(state: BatchItemState? = nil) throws -> [BatchItem] {
        try database.batchItems(state: state)
    }
}
