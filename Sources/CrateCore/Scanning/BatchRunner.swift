import Foundation

/// Scans one photo on behalf of the bulk queue, saving it together with its queue item.
public protocol BatchScanning: Sendable {
    func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
    func identify(as album: Album, unscannedPhoto: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult
}

extension BatchScanning {
    /// Scanners that know no barcodes (test stand-ins) find nothing.
    public func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw ScanFailure.notIdentified
    }

    public func identify(as album: Album, unscannedPhoto: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw ScanFailure.notIdentified
    }
}

extension ScanPipeline: BatchScanning {}

/// What happened to one queued photo.
public enum BatchOutcome: Sendable {
    case scanned(BatchItem, ScanResult)
    /// Not identified or unreadable; the item is now `failed` with this failure's message.
    case failed(BatchItem, ScanFailure)
    /// Another run had already finished the item, or holds it now; nothing was saved twice.
    case skipped(BatchItem, BatchQueueError)
}

/// Drains a `BatchQueue` one photo at a time.
public final class BatchRunner: Sendable {
    private let queue: BatchQueue
    private let scanner: BatchScanning

    public init(queue: BatchQueue, scanner: BatchScanning) {
        self.queue = queue
        self.scanner = scanner
    }

    /// Scans pending photos until the queue is empty or `limit` photos were taken.
    ///
    /// Stops with an error, leaving the current photo pending, on problems that would fail every
    /// photo alike (a rejected provider key, a full disk, the network) or on cancellation.
    /// Returns how many photos were taken from the queue.
    @discardableResult
    public func run(limit: Int? = nil, report: @escaping @Sendable (BatchOutcome) -> Void) async throws -> Int {
        var taken = 0
        while limit.map({ taken < $0 }) ?? true {
            for item in try queue.failExhausted() {
                report(.skipped(item, .triedTooOften(path: item.path, attempts: item.attempts)))
            }
            guard let item = try queue.next() else { break }
            taken += 1
            try await Self.scan(item, from: queue, with: scanner, report: report)
        }
        return taken
    }

    /// Scans one claimed item under its lease and reports the outcome. A failure of this photo
    /// alone settles the item and is reported; one that would fail every photo is thrown.
    static func scan(_ item: BatchItem, from queue: BatchQueue, with scanner: BatchScanning,
                     report: @Sendable (BatchOutcome) -> Void) async throws {
        do {
            let result = try await queue.holding(item) {
                try await scanner.scan(file: URL(fileURLWithPath: item.path), batchItem: item.id) { _ in }
            }
            report(.scanned(item, result))
        } catch let error as BatchQueueError {
            report(.skipped(item, error))
        } catch {
            let onlyThisPhoto: Bool
            do {
                onlyThisPhoto = try queue.settle(item, after: error)
            } catch let settleError {
                Log.error("could not update \(item.path) in the queue: \(settleError.localizedDescription)")
                throw error
            }
            guard onlyThisPhoto, let failure = error as? ScanFailure else { throw error }
            report(.failed(item, failure))
        }
    }
}
