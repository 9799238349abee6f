import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Batch queue")
struct BatchQueueTests {
    private static let album = Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977")

    private func files(_ names: String...) -> [URL] {
        names.map { URL(fileURLWithPath: "/photos/\($0).jpg") }
    }

    @Test func migrationV5CreatesTheQueueAfterV4() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.reader.read { try $0.tableExists("batch_item") })
        let known = AppDatabase.knownMigrations
        #expect(known.firstIndex(of: "v5-batch") == known.firstIndex(of: "v4-search").map { $0 + 1 })
    }

    @Test func aWaitingPhotoIsQueuedOnceButMayBeQueuedAgainWhenFinished() throws {
        // Given
        let queue = BatchQueue(database: try AppDatabase.inMemory())
        // When
        let first = try queue.enqueue(files("a", "b", "a"))
        let again = try queue.enqueue(files("b", "c"))
        // Then
        #expect(first == 2)
        #expect(again == 1)
        let a = try #require(try queue.next())
        try queue.markDone(a, album: Self.album, method: .localMatch)
        #expect(try queue.enqueue(files("a")) == 1, "a finished photo can be scanned again on purpose")
        #expect(try queue.counts() == BatchCounts(pending: 3, done: 1, failed: 0))
    }

    @Test func markDoneSavesTheScanAndFinishesTheItemTogether() throws {
        // Given
        let db = try AppDatabase.inMemory()
        let queue = BatchQueue(database: db)
        try queue.enqueue(files("a"))
        let item = try #require(try queue.next())
        // When
        let entry = try queue.markDone(item, album: Self.album, method: .localMatch, confidence: 0.9)
        // Then
        let stored = try #require(try queue.items().first)
        #expect(stored.state == .done)
        #expect(stored.scanID == entry.scan.id)
        #expect(try db.counts().scans == 1)
        #expect(try queue.next() == nil)
    }

    /// A second run finishing the same item (or a retry after a lost answer) must not save a
    /// second scan: the whole transaction is refused.
    @Test func finishingAnItemTwiceSavesNothingTheSecondTime() throws {
        let db = try AppDatabase.inMemory()
        let queue = BatchQueue(database: db)
        try queue.enqueue(files("a"))
        let item = try #require(try queue.next())
        try queue.markDone(item, album: Self.album, method: .localMatch)
        #expect(throws: BatchQueueError.notPending(path: "/photos/a.jpg")) {
            try queue.markDone(item, album: Self.album, method: .localMatch)
        }
        #expect(try db.counts() == .init(albums: 1, scans: 1, reviews: 0))
    }

    @Test func anInterruptedItemIsResumedThenSkippedAfterTooManyAttempts() throws {
        // Given: a photo whose scan never finishes (the process dies each time; a lease that lapses
        // at once stands for the dead process's claim)
        let queue = BatchQueue(database: try AppDatabase.inMemory(), maxAttempts: 2, lease: BatchLease(duration: .zero, renewEvery: .seconds(1)))
        try queue.enqueue(files("poison", "fine"))
        // When
        let first = try #require(try queue.next())
        let second = try #require(try queue.next())  // "restart": still pending, picked up again
        let third = try #require(try queue.next())
        // Then
        #expect(first.path == "/photos/poison.jpg" && second.path == "/photos/poison.jpg")
        #expect(third.path == "/photos/fine.jpg")
        let failed = try #require(try queue.items(state: .failed).first)
        #expect(failed.path == "/photos/poison.jpg")
        #expect(failed.error?.contains("interrupted 2 times") == true)
    }

    @Test func failedAndReleasedItems() throws {
        let queue = BatchQueue(database: try AppDatabase.inMemory())
        try queue.enqueue(files("a", "b"))
        let a = try #require(try queue.next())
        try queue.markFailed(a, error: "Unable to identify this cover art")
        let b = try #require(try queue.next())
        try queue.release(b)
        let items = try queue.items()
        #expect(items.map(\.state) == [.failed, .pending])
        #expect(items[0].error == "Unable to identify this cover art")
        #expect(items[1].attempts == 0)
    }

    @Test func theRunnerFailsBadPhotosAndStopsOnAWrongKey() async throws {
        // Given
        let db = try AppDatabase.inMemory()
        let queue = BatchQueue(database: db)
        try queue.enqueue(files("good", "unknown", "key", "later"))
        let runner = BatchRunner(queue: queue, scanner: ScriptedBatchScanner(database: db))
        let outcomes = OutcomeLog()
        // When
        await #expect(throws: ScanFailure.providerKey("wrong key")) {
            try await runner.run { outcomes.append($0) }
        }
        // Then
        #expect(outcomes.names == ["scanned good", "failed unknown"])
        let items = try queue.items()
        #expect(items.map(\.state) == [.done, .failed, .pending, .pending])
        #expect(items[2].attempts == 0, "a wrong key is not the photo's fault")
        #expect(try db.counts().scans == 1)
    }
}

/// Saves "good", fails "key" with a key problem and anything else as not identified.
struct ScriptedBatchScanner: BatchScanning {
    let database: AppDatabase

    func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        switch file.deletingPathExtension().lastPathComponent {
        case "good":
            let entry = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac"), method: .localMatch, completingBatchItem: batchItem!)
            return ScanResult(entry: entry)
        case "key": throw ScanFailure.providerKey("wrong key")
        default: throw ScanFailure.notIdentified
        }
    }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        ScanResult(entry: try database.saveScan(of: candidate, method: .manual))
    }
}

private final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []

    func append(_ outcome: BatchOutcome) {
        let name: String
        switch outcome {
        case .scanned(let item, _): name = "scanned " + URL(fileURLWithPath: item.path).deletingPathExtension().lastPathComponent
        case .failed(let item, _): name = "failed " + URL(fileURLWithPath: item.path).deletingPathExtension().lastPathComponent
        case .skipped(let item, _): name = "skipped " + item.path
        }
        lock.lock(); log.append(name); lock.unlock()
    }

    var names: [String] {
        lock.lock(); defer { lock.unlock() }
        return log
    }
}
