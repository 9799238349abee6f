import Foundation
import Synchronization
import Testing
@testable import CrateCore

@Suite("Poison-photo limit")
struct PoisonPhotoLimitTests {
    /// Bug: three `batch run`s that ended in a provider's 429, 500, 503 or 529 (or three
    /// interrupts) marked the photo failed as "interrupted 3 times; skipped", and it was never
    /// retried. Only a run that dies in the middle of work on the photo counts toward the limit.
    @Test("Transient service errors and interrupts never use up a photo's tries", arguments: [
        ServiceTroubleError(.rateLimited(retryAfter: 30)) as any Error,
        ServiceTroubleError(.serverError(status: 503)),
        ServiceTroubleError(.overloaded),
        IdentificationError.provider(.rateLimited(retryAfter: 30)),
        IdentificationError.provider(.serverError(status: 500)),
        IdentificationError.provider(.serverError(status: 503)),
        IdentificationError.provider(.overloaded),
        ProviderError.transport("timed out"),
        MusicBrainzError.busy,
        CancellationError(),
    ])
    func transientErrorsKeepThePhotoQueued(error: any Error) async throws {
        let database = try AppDatabase.inMemory()
        let queue = BatchQueue(database: database, maxAttempts: 3)
        try queue.enqueue([URL(fileURLWithPath: "/photos/good.jpg")])
        let failing = BatchRunner(queue: queue, scanner: ThrowingScanner(error: error))
        for _ in 0..<5 {
            await #expect(throws: (any Error).self) { try await failing.run { _ in } }
        }
        let waiting = try #require(try queue.items().first)
        #expect(waiting.state == .pending)
        #expect(waiting.attempts == 0)

        // The service is back: the photo is scanned.
        let runner = BatchRunner(queue: queue, scanner: ScriptedBatchScanner(database: database))
        #expect(try await runner.run { _ in } == 1)
        #expect(try queue.counts().done == 1)
    }

    /// Bug (the faulty kill campaign's "7 albums for 8 photos"): a photo whose third try was
    /// killed stays waiting with its tries used up, and the next run fails it without a try.
    /// Adding it again said "already waiting" and changed nothing, so the run after it skipped the
    /// photo the user had just queued. Adding a waiting photo again gives it its tries back.
    @Test func addingAWaitingPhotoAgainGivesItsTriesBack() async throws {
        let database = try AppDatabase.inMemory()
        // A lease that lapses at once stands for the claim of a process that was killed.
        let queue = BatchQueue(database: database, maxAttempts: 3, lease: BatchLease(duration: .zero, renewEvery: .seconds(1)))
        let photo = URL(fileURLWithPath: "/photos/good.jpg")
        try queue.enqueue([photo])
        for _ in 0..<3 { _ = try #require(try queue.next()) }
        #expect(try queue.enqueue([photo]) == 0, "still one item for the photo")
        #expect(try queue.items().map(\.attempts) == [0])

        let runner = BatchRunner(queue: queue, scanner: ScriptedBatchScanner(database: database))
        #expect(try await runner.run { _ in } == 1)
        #expect(try queue.counts() == BatchCounts(pending: 0, done: 1, failed: 0))
    }

    /// Bug: a run that failed a photo for its used-up tries (runs killed in the middle of it)
    /// did so inside the claim, without a word: `crate batch run` printed nothing for it and
    /// exited 0. Now each such photo is reported, with the reason.
    @Test func aPhotoWhoseTriesAreUsedUpIsReportedNotPassedOverInSilence() async throws {
        let database = try AppDatabase.inMemory()
        let queue = BatchQueue(database: database, maxAttempts: 3, lease: BatchLease(duration: .zero, renewEvery: .seconds(1)))
        let poison = URL(fileURLWithPath: "/photos/poison.jpg"), good = URL(fileURLWithPath: "/photos/good.jpg")
        try queue.enqueue([poison])
        for _ in 0..<3 { _ = try #require(try queue.next()) }  // three killed runs
        try queue.enqueue([good])

        let outcomes = Mutex<[BatchOutcome]>([])
        let runner = BatchRunner(queue: queue, scanner: ScriptedBatchScanner(database: database))
        #expect(try await runner.run { outcome in outcomes.withLock { $0.append(outcome) } } == 1)
        let reported = outcomes.withLock { $0 }
        #expect(reported.count == 2)
        guard case .skipped(let item, let reason) = reported.first else {
            Issue.record("the used-up photo was not reported first: \(reported)")
            return
        }
        #expect(item.path == poison.path)
        #expect(reason == .triedTooOften(path: poison.path, attempts: 3))
        #expect(reason.message == "Scanning this photo was interrupted 3 times; it was skipped.")
        #expect(try queue.items(state: .failed).map(\.error) == [reason.message])
        #expect(try queue.counts() == BatchCounts(pending: 0, done: 1, failed: 1))
    }

    /// A photo a live process is scanning keeps the try it is on: adding it again does not make
    /// a photo that crashes Crate look new.
    @Test func addingAPhotoBeingScannedKeepsItsTry() throws {
        let queue = BatchQueue(database: try AppDatabase.inMemory(), maxAttempts: 3)
        let photo = URL(fileURLWithPath: "/photos/good.jpg")
        try queue.enqueue([photo])
        _ = try #require(try queue.next())
        #expect(try queue.enqueue([photo]) == 0)
        #expect(try queue.items().map(\.attempts) == [1])
    }
}

private struct ThrowingScanner: BatchScanning {
    let error: any Error

    func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw error
    }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        throw error
    }
}
