import Foundation

/// The window's scanner when files must survive a kill: every file dropped on the window is kept
/// in the library's bulk queue until its scan is saved (docs/decisions/0006-bulk-scan-queue.md), and a session that was
/// killed hands its unscanned files to the next one.
///
/// Wiring: give `ScanStore` this scanner; call `remember(_:)` with the files passed to
/// `ScanStore.scan(files:)`, and at start pass `unfinishedFiles()` to `ScanStore.scan(files:)`.
public final class QueuedScanner: AlbumScanner {
    private let queue: BatchQueue
    private let scanner: BatchScanning

    public init(queue: BatchQueue, scanner: BatchScanning) {
        self.queue = queue
        self.scanner = scanner
    }

    /// Records files as soon as they are dropped, before their turn comes.
    public func remember(_ files: [URL]) throws {
        try queue.enqueue(files)
    }

    /// Files a previous session queued but never saved a scan for, oldest first.
    public func unfinishedFiles() throws -> [URL] {
        try queue.pendingFiles()
    }

    /// Scans `file` under its queue item. When another live process holds that item (it is
    /// scanning the same photo from the queue), this request still gets its own scan: it runs
    /// without an item, and the photo stays safe in the queue with its holder.
    public func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        guard let item = try queue.claim(file) else {
            return try await scanner.scan(file: file, batchItem: nil, events: events)
        }
        do {
            let scanner = self.scanner
            return try await queue.holding(item) {
                try await scanner.scan(file: file, batchItem: item.id, events: events)
            }
        } catch {
            do {
                try queue.settle(item, after: error)
            } catch let settleError {
                Log.error("could not update \(file.path) in the queue: \(settleError.localizedDescription)")
            }
            throw error
        }
    }

    /// "Not this album?" is not a queued photo: it goes straight to the pipeline.
    public func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await scanner.choose(candidate, replacing: scanID, events: events)
    }

    /// Named by the user: straight to the pipeline (which finishes the photo's queue item).
    public func identify(as album: Album, unscannedPhoto: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await scanner.identify(as: album, unscannedPhoto: unscannedPhoto, events: events)
    }

    /// A barcode is not a file to keep safe: it goes straight to the pipeline.
    public func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await scanner.scan(barcode: barcode, events: events)
    }
}
