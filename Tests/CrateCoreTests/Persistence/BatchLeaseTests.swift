import Foundation
import GRDB
import Synchronization
import Testing
@testable import CrateCore

/// A queued photo is claimed by exactly one process, under a lease that lapses
/// (docs/decisions/0006-bulk-scan-queue.md, docs/reliability.md #19). Two `AppDatabase`s opened on one
/// file stand for two processes: separate connections, separate lease owners.
@Suite("Batch leases")
struct BatchLeaseTests {
    private static let album = Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977")

    private func files(_ names: String...) -> [URL] {
        names.map { URL(fileURLWithPath: "/photos/\($0).jpg") }
    }

    @Test func aClaimedPhotoIsNeverClaimedByAnotherLiveProcess() throws {
        let dir = try TemporaryDirectory()
        let first = BatchQueue(database: try AppDatabase.open(paths: dir.paths))
        let second = BatchQueue(database: try AppDatabase.open(paths: dir.paths))
        try first.enqueue(files("a", "b"))

        let a = try #require(try first.next())
        let b = try #require(try second.next())
        #expect(a.path == "/photos/a.jpg")
        #expect(b.path == "/photos/b.jpg", "the second process gets the next photo, not the one being scanned")
        #expect(try second.next() == nil)
        #expect(try first.next() == nil)
    }

    @Test func aLapsedLeaseIsClaimedAgain() throws {
        let db = try AppDatabase.inMemory()
        try db.enqueueBatch(paths: ["/photos/a.jpg"])
        let start = Date(timeIntervalSince1970: 1_000_000)
        // A process on another machine (a library on a shared disk): only time can end its lease.
        let remote = BatchLeaseOwner(host: "elsewhere.example", processID: 1, startTime: 1)
        let local = BatchLeaseOwner()
        let taken = try db.claimNextBatchItem(maxAttempts: 3, owner: remote, leaseDuration: 60, at: start)
        #expect(taken != nil)
        #expect(try db.claimNextBatchItem(maxAttempts: 3, owner: local, leaseDuration: 60, at: start.addingTimeInterval(59)) == nil)
        let retried = try #require(try db.claimNextBatchItem(maxAttempts: 3, owner: local, leaseDuration: 60, at: start.addingTimeInterval(61)))
        #expect(retried.attempts == 2)
        // The lapsed owner's late save is refused: the photo now belongs to the retry.
        #expect(throws: BatchQueueError.claimedElsewhere(path: "/photos/a.jpg")) {
            try db.saveScan(of: Self.album, method: .vision, at: start.addingTimeInterval(62), completingBatchItem: retried.id!, owner: remote)
        }
        try db.saveScan(of: Self.album, method: .vision, at: start.addingTimeInterval(62), completingBatchItem: retried.id!, owner: local)
        #expect(try db.counts().scans == 1)
    }

    @Test func aKilledProcessesPhotoIsClaimedAtOnce() throws {
        let db = try AppDatabase.inMemory()
        try db.enqueueBatch(paths: ["/photos/a.jpg"])
        // A process of this machine that has exited, as after a kill -9.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = BatchLeaseOwner(host: BatchLeaseOwner().host, processID: gone.processIdentifier, startTime: 1)
        #expect(try db.claimNextBatchItem(maxAttempts: 3, owner: dead, leaseDuration: 600) != nil)
        let retried = try db.claimNextBatchItem(maxAttempts: 3, owner: BatchLeaseOwner(), leaseDuration: 600)
        #expect(retried?.path == "/photos/a.jpg", "a dead process's lease does not make the photo wait")
    }

    @Test func aLongScanKeepsItsLease() async throws {
        let dir = try TemporaryDirectory()
        // Generous margins: renewals must keep up even on a loaded two-core CI machine.
        let lease = BatchLease(duration: .milliseconds(3_000), renewEvery: .milliseconds(200))
        let first = BatchQueue(database: try AppDatabase.open(paths: dir.paths), lease: lease)
        let second = BatchQueue(database: try AppDatabase.open(paths: dir.paths), lease: lease)
        try first.enqueue(files("a"))
        let item = try #require(try first.next())
        let stolen = try await first.holding(item) {
            try await Task.sleep(for: .milliseconds(4_500))  // Well past one lease without renewals.
            return try second.next()
        }
        #expect(stolen == nil, "a lease renewed while the scan runs never lapses")
    }

    /// Issue #4: a file named by the user is answered by its own scan even while another process
    /// holds the same photo's queue item.
    @Test func aNamedFileHeldByAnotherProcessGetsItsOwnResult() async throws {
        let dir = try TemporaryDirectory()
        let dbA = try AppDatabase.open(paths: dir.paths)
        let dbB = try AppDatabase.open(paths: dir.paths)
        let gate = Gate()
        let a = QueuedScanner(queue: BatchQueue(database: dbA), scanner: GatedScanner(database: dbA, gate: gate))
        let b = QueuedScanner(queue: BatchQueue(database: dbB), scanner: GatedScanner(database: dbB, gate: nil))
        let photo = URL(fileURLWithPath: "/photos/good.jpg")

        let first = Task { try await a.scan(file: photo) { _ in } }
        while !gate.entered { try await Task.sleep(for: .milliseconds(10)) }
        let second = try await b.scan(file: photo) { _ in }
        gate.open()
        let firstResult = try await first.value

        #expect(firstResult.entry.scan.id != second.entry.scan.id, "each request has its own result")
        #expect(try dbA.counts().scans == 2)
        #expect(try dbA.batchItems().map(\.state) == [.done])
    }

    /// Opening an old library from many processes at once migrates it once, and every open works.
    @Test func manyOpensOfAnOldLibraryMigrateOnce() throws {
        for _ in 0..<3 {
            let dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(at: dir.paths.dataDirectory, withIntermediateDirectories: true)
            do {
                let old = try DatabasePool(path: dir.paths.databaseURL.path)
                try AppDatabase.migrator.migrate(old, upTo: "v4-search")
            }
            let paths = dir.paths
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let db = try AppDatabase.open(paths: paths)
                    _ = try db.read(HistoryPageRequest())
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let db = try AppDatabase.open(paths: dir.paths)
            #expect(try db.appliedMigrations() == AppDatabase.knownMigrations)
            #expect(try db.integrityCheck() == ["ok"])
        }
    }
}

/// Lets a test hold a scan between its claim and its save.
private final class Gate: Sendable {
    private let state = Mutex((entered: false, open: false))

    var entered: Bool { state.withLock { $0.entered } }
    var isOpen: Bool { state.withLock { $0.open } }

    func enter() { state.withLock { $0.entered = true } }
    func open() { state.withLock { $0.open = true } }
}

/// Saves every photo as one album; waits at `gate` (when given) before saving.
private struct GatedScanner: BatchScanning {
    let database: AppDatabase
    let gate: Gate?

    func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        if let gate {
            gate.enter()
            while !gate.isOpen { try await Task.sleep(for: .milliseconds(10)) }
        }
        let album = Album(title: "Rumours", artist: "Fleetwood Mac")
        guard let batchItem else { return ScanResult(entry: try database.saveScan(of: album, method: .vision)) }
        return ScanResult(entry: try database.saveScan(of: album, method: .vision, completingBatchItem: batchItem))
    }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        ScanResult(entry: try database.saveScan(of: candidate, method: .manual))
    }
}
