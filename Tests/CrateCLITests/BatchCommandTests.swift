import CrateCore
import Foundation
import Testing

/// docs/reliability.md #5: a bulk scan of 100 photos killed halfway resumes on restart; no photo is
/// scanned twice and none is lost.
@Suite("crate batch", .tags(.process, .slow))
struct BatchCommandTests {
    /// 100 distinct files (copies of one fixture cover) that tier 0 recognises offline.
    private static func hundredPhotos(in cli: CLIRunner) throws -> [String] {
        let source = ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")
        let folder = cli.root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<100).map { index in
            let copy = folder.appendingPathComponent(String(format: "photo-%03d.jpg", index))
            try FileManager.default.copyItem(at: source, to: copy)
            return copy.path
        }
    }

    @Test func addRunStatus() async throws {
        let cli = try ScanCommandTests.seededCLI()
        let known = ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg").path
        let unknown = ScanCommandTests.fixtures.appendingPathComponent("negatives/unknown-00.jpg").path
        let added = try await cli.run(["batch", "add", known, unknown, known])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Queued 2 photos (1 already waiting)."))

        let run = try await cli.run(["batch", "run", "--json", "--offline"])
        #expect(run.status == 2, "one was not identified: \(run.stdout)")
        #expect(run.stdout.split(separator: "\n").count == 2)

        let status = try await cli.run(["batch", "status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["pending"] as? Int == 0)
        #expect(object["done"] as? Int == 1)
        #expect(object["failed"] as? Int == 1)

        let help = try await cli.run(["batch", "--help"])
        #expect(help.stdout.contains("resumes"))
    }

    /// docs/reliability.md #36, #46: a photo whose third try was killed waits with its tries used
    /// up. `batch add` of it again gives them back and the next run scans it; it used to say
    /// "already waiting" and leave the run to fail the photo unscanned ("interrupted 3 times").
    @Test func aPhotoAddedAgainAfterItsTriesWereKilledIsScanned() async throws {
        let cli = try ScanCommandTests.seededCLI()
        let known = ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg").path
        #expect(try await cli.run(["batch", "add", known]).status == 0)
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        // Three runs killed mid-scan: claims whose leases have lapsed.
        for _ in 0..<BatchQueue.defaultMaxAttempts {
            _ = try #require(try database.claimNextBatchItem(maxAttempts: BatchQueue.defaultMaxAttempts, leaseDuration: 0))
        }
        let again = try await cli.run(["batch", "add", known])
        #expect(again.stdout.contains("Queued 0 photos (1 already waiting)."), "\(again.stdout)")

        let run = try await cli.run(["batch", "run", "--json", "--offline"])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try database.batchCounts() == BatchCounts(pending: 0, done: 1, failed: 0))
    }

    @Test(.timeLimit(.minutes(20)))
    func aRunKilledHalfwayResumesWithEveryPhotoScannedExactlyOnce() async throws {
        // Given: a crate that knows cover-00, and 100 copies of it in the queue
        let cli = try ScanCommandTests.seededCLI()
        let photos = try Self.hundredPhotos(in: cli)
        let added = try await cli.run(["batch", "add"] + photos)
        #expect(added.stdout.contains("Queued 100 photos."), "\(added.stderr)")
        let paths = CratePaths(environment: cli.environment)
        let seededScans = try AppDatabase.open(paths: paths).counts().scans

        // When: the run is SIGKILLed once about 30 photos are saved
        let environment = cli.environment
        let doneAtKill = try await BlockingWork.run { () -> Int in
            let database = try AppDatabase.open(paths: paths)
            let child = try ChildProcess(["batch", "run", "--offline"], environment: environment, captureOutput: false)
            let deadline = Date().addingTimeInterval(900)  // a hang guard: the whole suite on two cores starves the child
            while try database.batchCounts().done < 30, Date() < deadline { usleep(20_000) }
            #expect(child.kill9(), "the run must still be going when it is killed")
            return try database.batchCounts().done
        }
        let database = try AppDatabase.open(paths: paths)
        let afterKill = try database.batchCounts()
        #expect(afterKill.done >= 30 && afterKill.done < 100, "killed halfway: \(afterKill)")
        #expect(afterKill.done + afterKill.pending == 100, "nothing lost at the kill: \(afterKill)")
        #expect(try database.counts().scans == seededScans + afterKill.done, "a scan exists exactly for each done item")

        // Then: a restart finishes the rest
        let resumed = try await cli.run(["batch", "run", "--json", "--offline"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let resumedLines = resumed.stdout.split(separator: "\n")
        #expect(resumedLines.count == 100 - afterKill.done, "only the photos not yet saved are scanned again")

        let items = try database.batchItems()
        #expect(items.count == 100)
        #expect(items.allSatisfy { $0.state == .done })
        let scanIDs = items.compactMap(\.scanID)
        #expect(Set(scanIDs).count == 100, "each photo has its own scan")
        #expect(Set(items.map(\.path)) == Set(photos))
        #expect(try database.counts().scans == seededScans + 100, "scan count == item count: nothing scanned twice")
        #expect(try database.scanIDs().isSuperset(of: scanIDs))
        #expect(try database.integrityCheck() == ["ok"])
        print("batch resume: killed with \(doneAtKill) done (\(afterKill.done) after kill), resumed \(resumedLines.count), total scans \(try database.counts().scans - seededScans)")
    }
}
