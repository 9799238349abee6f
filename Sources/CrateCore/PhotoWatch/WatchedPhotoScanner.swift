import Foundation

/// Scans the photos a watched folder queued, each under its own queue item, like `BatchRunner`
/// but only those items: a photo another live process holds, or one already finished, is
/// skipped, never scanned a second time. Photos that are not covers fail their item quietly and
/// so land in the set-aside list (`AppDatabase.setAsidePhotos`).
public final class WatchedPhotoScanner: Sendable {
    private let queue: BatchQueue
    private let scanner: BatchScanning

    public init(queue: BatchQueue, scanner: BatchScanning) {
        self.queue = queue
        self.scanner = scanner
    }

    /// Scans `arrivals` in order; returns how many were taken. Stops with an error, leaving the
    /// current photo pending, on problems that would fail every photo alike (a wrong key, the
    /// network, a full disk) or on cancellation.
    @discardableResult
    public func scan(_ arrivals: [WatchedArrival], report: @escaping @Sendable (BatchOutcome) -> Void) async throws -> Int {
        var taken = 0
        for arrival in arrivals {
            try Task.checkCancellation()
            guard let item = try queue.database.claimPendingBatchItem(id: arrival.batchItemID) else { continue }
            taken += 1
            try await BatchRunner.scan(item, from: queue, with: scanner, report: report)
        }
        return taken
    }
}
