import CrateTestSupport
import Foundation
import Synchronization
import Testing
@testable import CrateCore

/// Failed scans stay: a photo that could not be scanned is listed in History with a reason in
/// plain words, waits in the queue while the network is away, is scanned when it returns, and a
/// run of several photos ends with a summary.
@Suite("Failed scans stay")
@MainActor
struct FailedScansTests {
    /// "good*" scans; "unknown*" is not identified; "net*" fails like a provider call with no
    /// network until `online` is set.
    final class NetworkScanner: BatchScanning {
        let database: AppDatabase
        let online = Atomic<Bool>(false)
        /// Every file asked for, in order.
        let asked = Mutex<[String]>([])
        init(database: AppDatabase) { self.database = database }

        func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
            let name = file.deletingPathExtension().lastPathComponent
            asked.withLock { $0.append(name) }
            if name.hasPrefix("unknown") { throw ScanFailure.notIdentified }
            if name.hasPrefix("net"), !online.load(ordering: .relaxed) {
                throw IdentificationError.provider(.transport("cannot connect (Could not resolve host: api.anthropic.com)"))
            }
            let album = Album(title: "Album \(name)", artist: "Artist")
            let entry = try batchItem.map { try database.saveScan(of: album, method: .localMatch, completingBatchItem: $0) }
                ?? database.saveScan(of: album, method: .localMatch)
            return ScanResult(entry: entry)
        }

        func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
            ScanResult(entry: try database.saveScan(of: candidate, method: .manual))
        }
    }

    private func photos(_ names: [String], in dir: TemporaryDirectory) throws -> [URL] {
        try names.map { name in
            let url = dir.url.appendingPathComponent("\(name).jpg")
            try Data([0xFF, 0xD8]).write(to: url)
            return url
        }
    }

    private func model(_ database: AppDatabase, dir: TemporaryDirectory,
                       retrySleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) }) -> (AppModel, NetworkScanner) {
        let environment = AppEnvironment(paths: dir.paths, variables: [:], database: database)
        let model = AppModel(environment: environment, player: LogPlayer(clock: ManualPlaybackClock(), log: PlaybackLog(fileURL: nil)),
                             retrySleep: retrySleep)
        let scanner = NetworkScanner(database: database)
        model.scans.replaceScanner(QueuedScanner(queue: BatchQueue(database: database), scanner: scanner))
        return (model, scanner)
    }

    @Test func anOfflineFailureSpeaksPlainWordsAndWaits() {
        let failure = ScanFailure(IdentificationError.provider(.transport("cannot connect (Could not resolve host: api.anthropic.com)")))
        #expect(failure == .offline(service: "the identification service"))
        #expect(failure.waitsForRetry)
        #expect(!failure.message.contains("resolve host") && failure.message.contains("could not reach"))
        #expect(ScanFailure(HTTPError.cannotConnect("Could not resolve host: x")).waitsForRetry)
        #expect(!ScanFailure(ScanFailure.notIdentified).waitsForRetry)
        #expect(!ScanFailure(ProviderError.transport("cancelled")).waitsForRetry)
    }

    /// Esc during a scan was reported as "could not be scanned": a request cut off by the user
    /// is a cancellation, whichever layer says so.
    @Test func aCancelledRequestIsACancellation() {
        #expect(ScanFailure(HTTPError.cancelled) == .cancelled)
        #expect(ScanFailure(ProviderError.transport("cancelled")) == .cancelled)
        #expect(ScanFailure(IdentificationError.provider(.transport("cancelled"))) == .cancelled)
        #expect(ScanFailure.cancelled.message == "Scan cancelled")
        #expect(ScanFailure(HTTPError.timedOut) != .cancelled)
        // The pipeline's own words for a request that was cut off, when the user had stopped it.
        #expect(ScanFailure(ScanFailure.other("Could not reach the provider: cancelled."), cancelled: true) == .cancelled)
    }

    /// The window starts its background work after the first page: a file opened before that
    /// is queued too, and must not be scanned again as a previous session's leftover.
    @Test func aFileOpenedBeforeTheDeferredStartIsScannedOnceAndLeftoversToo() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let files = try photos(["unknown-left-over", "unknown-opened"], in: dir)
        try QueuedScanner(queue: BatchQueue(database: database), scanner: NetworkScanner(database: database)).remember([files[0]])
        let (model, scanner) = model(database, dir: dir)

        model.start(deferringBackgroundWork: true)
        model.scan(files: [files[1]])
        // The first page is on screen while the opened file is still being scanned.
        model.startBackgroundWork()
        await model.scans.waitUntilIdle()

        #expect(scanner.asked.withLock { $0 }.sorted() == ["unknown-left-over", "unknown-opened"])
    }

    @Test func aDropOfSeveralPhotosEndsWithASummaryAndItsFailuresStayInHistory() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let (model, _) = model(database, dir: dir)
        let files = try photos(["good1", "unknown", "good2", "net"], in: dir)

        model.scan(files: files)
        await model.scans.waitUntilIdle()

        let summary = try #require(model.scans.state.value.summary)
        #expect(summary.scanned == 2 && summary.failed == 1 && summary.waiting == 1)
        #expect(summary.text == "2 scanned, 1 not identified, 1 waiting to be scanned again")
        await model.history.reload()
        let unscanned = model.history.state.value.unscanned
        #expect(unscanned.map(\.name).sorted() == ["net.jpg", "unknown.jpg"])
        let failed = try #require(unscanned.first { $0.name == "unknown.jpg" })
        #expect(!failed.waits && failed.reason == ScanFailure.notIdentified.message)
        let waiting = try #require(unscanned.first { $0.name == "net.jpg" })
        #expect(waiting.waits && waiting.reason.contains("could not reach") && !waiting.reason.contains("resolve host"))
        #expect(model.history.state.value.entries.count == 2)
    }

    @Test func aSinglePhotoHasNoSummary() async throws {
        let dir = try TemporaryDirectory()
        let (model, _) = model(try AppDatabase.inMemory(), dir: dir)
        model.scan(files: try photos(["unknown"], in: dir))
        await model.scans.waitUntilIdle()
        #expect(model.scans.state.value.summary == nil)
        #expect(model.scans.state.value.phase == .failed(file: dir.url.appendingPathComponent("unknown.jpg"), .notIdentified))
    }

    @Test func aPhotoQueuedWhileOfflineIsScannedWhenTheNetworkReturns() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let (model, scanner) = model(database, dir: dir)
        model.scan(files: try photos(["net"], in: dir))
        await model.scans.waitUntilIdle()
        #expect(try database.waitingPhotos().map(\.lastPathComponent) == ["net.jpg"])
        #expect(try database.counts().scans == 0)

        // Still offline: trying again keeps it waiting, with one row in History.
        await model.retryWaiting()
        await model.scans.waitUntilIdle()
        #expect(try database.read(UnscannedPhotosRequest()).count == 1)

        scanner.online.store(true, ordering: .relaxed)
        await model.retryWaiting()
        await model.scans.waitUntilIdle()
        #expect(try database.counts().scans == 1)
        #expect(try database.read(UnscannedPhotosRequest()).isEmpty)
        #expect(try database.waitingPhotos().isEmpty)
    }

    /// Photos that waited for the network were never tried again on their own (2.5 minutes,
    /// zero requests): only Try Now worked. They are tried after 30 s, then at growing intervals
    /// while they keep waiting, and scanned once the network is back.
    @Test func waitingPhotosAreTriedAgainOnASchedule() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let sleep = ManualSleep()
        let (model, scanner) = model(database, dir: dir, retrySleep: { await sleep.sleep($0) })
        model.scan(files: try photos(["net"], in: dir))
        await model.scans.waitUntilIdle()
        #expect(try database.waitingPhotos().count == 1)
        model.keepRetryingWaitingPhotos()
        var delays: [TimeInterval] = []
        for _ in 0..<4 {
            delays.append(await sleep.nextRequest())
            await model.scans.waitUntilIdle()
            if delays.count < 4 { sleep.wake() }
        }
        #expect(delays == [30, 30, 60, 120])
        let asked = scanner.asked.withLock { $0 }
        #expect(asked == ["net", "net", "net", "net"], "the first scan and three tries")
        scanner.online.store(true, ordering: .relaxed)
        sleep.wake()
        #expect(await sleep.nextRequest() == 240, "the try was made before it was known to succeed")
        await model.scans.waitUntilIdle()
        #expect(try database.counts().scans == 1)
        #expect(try database.waitingPhotos().isEmpty)
        // Nothing waits any more: the schedule starts over.
        sleep.wake()
        #expect(await sleep.nextRequest() == 30)
    }

    @Test func theRetryScheduleBacksOffAndStartsOver() {
        var schedule = WaitingRetrySchedule()
        var delays: [TimeInterval] = [schedule.delay]
        var tries: [Bool] = []
        for waiting in [2, 2, 2, 2, 2, 2, 2, 1, 0] {
            tries.append(schedule.due(waiting: waiting))
            delays.append(schedule.delay)
        }
        #expect(tries == [true, true, true, true, true, true, true, true, false])
        // As many waiting as before doubles the wait (up to 15 minutes); fewer, or none, starts over.
        #expect(delays == [30, 30, 60, 120, 240, 480, 900, 900, 30, 30])
    }

    @Test func retryAndRemoveOnAFailedRow() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let (model, _) = model(database, dir: dir)
        let files = try photos(["unknown1", "unknown2"], in: dir)
        model.scan(files: files)
        await model.scans.waitUntilIdle()
        await model.history.reload()
        let rows = model.history.state.value.unscanned
        #expect(rows.count == 2)

        // Remove forgets the photo: out of History and out of the queue.
        let removed = try #require(rows.first { $0.name == "unknown1.jpg" })
        await model.history.remove(unscannedPhotoID: removed.id)
        #expect(model.history.state.value.unscanned.map(\.name) == ["unknown2.jpg"])
        #expect(try database.batchItems().map(\.path) == [files[1].path])

        // Retry scans it again (it fails again, and stays listed once).
        let retried = try #require(rows.first { $0.name == "unknown2.jpg" })
        await model.retry(unscannedPhotoIDs: [retried.id])
        await model.scans.waitUntilIdle()
        #expect(try database.batchItems().count == 1)
        #expect(try database.read(UnscannedPhotosRequest()).map(\.name) == ["unknown2.jpg"])
        #expect(try database.batchItems().first?.attempts == 1)
    }

    @Test func savingAKeyRetriesThePhotosThatFailed() async throws {
        // Given a photo that failed because no provider was set up (tier 0 did not know it)
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let (model, _) = model(database, dir: dir)
        let photo = dir.url.appendingPathComponent("cover.jpg")
        try FileManager.default.copyItem(at: ImageFixtures.url("photos/cover-00-photo-0.jpg"), to: photo)
        model.scans.replaceScanner(QueuedScanner(queue: BatchQueue(database: database), scanner: model.services.makeScanPipeline()))
        model.scan(files: [photo])
        await model.scans.waitUntilIdle()
        #expect(try database.read(UnscannedPhotosRequest()).map(\.waits) == [false], "no provider: not identified")

        // When Preferences stores a key for a provider (here one that cannot be reached)
        let queueChanges = ChangeCounter(database.changes(in: [BatchItem.databaseTableName]))
        let preferences = model.makePreferences().provider
        preferences.selectProvider(.anthropic)
        preferences.setEndpoint("http://127.0.0.1:9")
        preferences.key.setSecret("sk-new")
        #expect(preferences.save())

        // Then the photo is scanned again at once: now it waits for the network, not failed
        let retried = await waitUntil(queueChanges) {
            (try? database.read(UnscannedPhotosRequest()).map(\.waits)) == [true]
        }
        await model.scans.waitUntilIdle()
        #expect(retried != nil)
        #expect(try database.read(UnscannedPhotosRequest()).first?.reason.contains("could not reach Anthropic") == true)
    }
}
