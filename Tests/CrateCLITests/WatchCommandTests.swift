import CrateCore
import Foundation
import GRDB
import Testing

/// docs/reliability.md #47: `crate watch` over a folder where 200 photos arrive in pieces, some
/// under sync tools' temporary names, some twice, some not covers, killed with SIGKILL halfway
/// and started again: each photo is queued and scanned once, none is read while partial, and
/// nothing is lost.
@Suite("crate watch", .tags(.process, .slow))
struct WatchCommandTests {
    /// One arrival: a name, its bytes, and whether it is synced under a temporary name first.
    private struct Arrival {
        let name: String
        let bytes: Data
        let viaTemporaryName: Bool
        let isCover: Bool
    }

    /// 200 arrivals: copies of a cover the crate knows (each with a few distinct bytes after its
    /// end, so each is a different photo), photos that are not covers, and about 1 in 7 a second
    /// copy of an earlier photo under another name.
    private static func arrivals() throws -> [Arrival] {
        let fixtures = ScanCommandTests.fixtures
        let cover = try Data(contentsOf: fixtures.appendingPathComponent("covers/cover-00.jpg"))
        let others = try ["negatives/unknown-00.jpg", "bad-images/not-an-image.jpg", "bad-images/one-pixel.jpg"].map {
            try Data(contentsOf: fixtures.appendingPathComponent($0))
        }
        var result: [Arrival] = []
        for index in 0..<200 {
            let name = String(format: "IMG_%04d.jpg", index)
            let viaTemporary = index % 9 == 4
            if index % 7 == 6, let earlier = result.dropLast(2).last(where: { !$0.viaTemporaryName }) {
                result.append(Arrival(name: name, bytes: earlier.bytes, viaTemporaryName: viaTemporary, isCover: earlier.isCover))
            } else if index % 5 == 2 {
                result.append(Arrival(name: name, bytes: others[index % 3] + Data("#\(index)".utf8), viaTemporaryName: viaTemporary, isCover: false))
            } else {
                result.append(Arrival(name: name, bytes: cover + Data("#\(index)".utf8), viaTemporaryName: viaTemporary, isCover: true))
            }
        }
        return result
    }

    /// Writes `batch` into `folder` as a phone sync would: each file in three pieces with pauses
    /// shorter than the settle time, files under a temporary name renamed once complete.
    private static func write(_ batch: ArraySlice<Arrival>, into folder: URL) throws {
        var handles: [(Arrival, URL, FileHandle)] = []
        for arrival in batch {
            let target = folder.appendingPathComponent(arrival.viaTemporaryName ? ".syncthing.\(arrival.name).tmp" : arrival.name)
            FileManager.default.createFile(atPath: target.path, contents: nil)
            handles.append((arrival, target, try FileHandle(forWritingTo: target)))
        }
        for piece in 0..<3 {
            for (arrival, _, handle) in handles {
                let size = arrival.bytes.count
                try handle.write(contentsOf: arrival.bytes[(size * piece / 3)..<(size * (piece + 1) / 3)])
            }
            usleep(120_000)
        }
        for (arrival, target, handle) in handles {
            try handle.close()
            if arrival.viaTemporaryName { try FileManager.default.moveItem(at: target, to: folder.appendingPathComponent(arrival.name)) }
        }
    }

    /// Watched photos finished (scanned or set aside), and those still waiting in the queue.
    private static func progress(_ database: AppDatabase) throws -> (finished: Int, pending: Int) {
        try database.reader.read { db in
            guard try db.tableExists("watched_photo") else { return (0, 0) }
            let finished = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM watched_photo w JOIN batch_item b ON b.id = w.batchItemId WHERE b.state != 'pending'
                """) ?? 0
            let pending = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM watched_photo w JOIN batch_item b ON b.id = w.batchItemId WHERE b.state = 'pending'
                """) ?? 0
            return (finished, pending)
        }
    }

    // The deadlines below only bound a hang: on a loaded machine every step is much slower, and
    // each loop ends as soon as its state is reached.
    @Test(.timeLimit(.minutes(10)))
    func twoHundredArrivalsAKillAndARestartScanEachPhotoOnce() async throws {
        // Given: a crate that knows cover-00, an empty camera folder and 200 photos to come
        let cli = try ScanCommandTests.seededCLI()
        let folder = cli.root.appendingPathComponent("Camera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let arrivals = try Self.arrivals()
        var unique: [String: Bool] = [:]  // full-file hash → is a cover
        for arrival in arrivals { unique[ContentHash.sha256(of: arrival.bytes)] = arrival.isCover }
        let paths = CratePaths(environment: cli.environment)
        let seededScans = try AppDatabase.open(paths: paths).counts().scans
        let environment = cli.environment
        let distinct = unique.count
        let started = Date()
        let watch = ["watch", folder.path, "--offline", "--settle", "0.5"]

        // When: the photos arrive in batches of 10 while `crate watch` runs; it is killed halfway,
        // a batch arrives while nothing watches, then it runs again until every photo is taken
        let killedWith = try await BlockingWork.run { () -> Int in
            let database = try AppDatabase.open(paths: paths)
            let first = try ChildProcess(watch, environment: environment, captureOutput: false)
            var deadline = Date().addingTimeInterval(120)
            while try !database.reader.read({ try $0.tableExists("watched_folder") && Int.fetchOne($0, sql: "SELECT COUNT(*) FROM watched_folder") == 1 }),
                  Date() < deadline { usleep(20_000) }
            for start in stride(from: 0, to: 100, by: 10) { try Self.write(arrivals[start..<start + 10], into: folder) }
            deadline = Date().addingTimeInterval(180)
            while try Self.progress(database).finished < 40, Date() < deadline { usleep(20_000) }
            let finishedAtKill = try Self.progress(database).finished
            #expect(first.kill9(), "the watch must still be running when it is killed")
            try Self.write(arrivals[100..<110], into: folder)

            let second = try ChildProcess(watch, environment: environment, captureOutput: false)
            for start in stride(from: 110, to: 200, by: 10) { try Self.write(arrivals[start..<start + 10], into: folder) }
            deadline = Date().addingTimeInterval(420)
            while try Self.progress(database) != (distinct, 0), Date() < deadline { usleep(50_000) }
            kill(second.process.processIdentifier, SIGTERM)
            #expect(second.wait() == 130, "Ctrl+C or SIGTERM ends a watch cleanly")
            return finishedAtKill
        }

        // Then: every distinct photo was taken once, with all its bytes (none read while partial)
        let database = try AppDatabase.open(paths: paths)
        let recorded = try await database.reader.read { try String.fetchAll($0, sql: "SELECT hash FROM watched_photo") }
        #expect(recorded.count == unique.count)
        #expect(Set(recorded) == Set(unique.keys), "only whole files were hashed")
        let items = try database.batchItems()
        #expect(items.allSatisfy { $0.state != .pending }, "nothing left waiting")
        let covers = unique.values.filter { $0 }.count
        #expect(items.filter { $0.state == .done }.count == covers)
        #expect(try database.counts().scans == seededScans + covers, "one scan per cover: nothing scanned twice")
        #expect(try database.setAsidePhotos().count == unique.count - covers, "the photos that are not covers are set aside")
        let listed = try await cli.run(["watch", "--set-aside", "--json"])
        let setAside = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(setAside.count == unique.count - covers)
        // And a last pass finds nothing new.
        let again = try await cli.run(watch + ["--once", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.isEmpty)
        #expect(try database.integrityCheck() == ["ok"])
        print("watch: 200 arrivals, \(unique.count) distinct (\(covers) covers), killed with \(killedWith) finished, all done in \(Int(Date().timeIntervalSince(started))) s")
    }
}
