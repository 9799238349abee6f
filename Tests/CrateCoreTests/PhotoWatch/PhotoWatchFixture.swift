import Foundation
import Synchronization
@testable import CrateCore

/// A watched folder, a library and a clock the test moves by hand.
final class PhotoWatchFixture {
    let temp: TemporaryDirectory
    let folder: URL
    let database: AppDatabase
    private let clock = TestNow()

    init() throws {
        temp = try TemporaryDirectory()
        folder = temp.url.appendingPathComponent("Camera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try AppDatabase.open(paths: temp.paths)
    }

    var now: @Sendable () -> Date { { [clock] in clock.date } }

    func advance(_ seconds: TimeInterval) {
        clock.advance(seconds)
    }

    func watcher(settle: TimeInterval = 3, database: AppDatabase? = nil) -> PhotoFolderWatcher {
        PhotoFolderWatcher(folder: folder, database: database ?? self.database, settle: settle, now: now)
    }

    /// Writes `bytes` to `name` in the folder (replacing it), or appends them.
    @discardableResult
    func write(_ name: String, _ bytes: Data, appending: Bool = false) throws -> URL {
        let url = folder.appendingPathComponent(name)
        if appending, let handle = try? FileHandle(forWritingTo: url) {
            try handle.seekToEnd()
            try handle.write(contentsOf: bytes)
            try handle.close()
        } else {
            try bytes.write(to: url)
        }
        return url
    }

    /// Distinct "photo" bytes.
    static func photo(_ seed: String, size: Int = 3000) -> Data {
        var data = Data("JPEG \(seed) ".utf8)
        while data.count < size { data.append(contentsOf: Array(seed.utf8) + [UInt8(data.count % 251)]) }
        return data
    }

    /// The kernel stamps ctime with its coarse clock, which on a loaded virtual machine can lag
    /// the precise one (the mark's) by far more than a tick: waits until a file written now gets
    /// a ctime after `mark`, so the test's photos are new (at most 30 s).
    static func pastTheMark(_ mark: Date) {
        let probe = NSTemporaryDirectory() + "crate-ctime-probe-\(getpid())-\(UUID().uuidString)"
        defer { unlink(probe) }
        for _ in 0..<3000 {
            FileManager.default.createFile(atPath: probe, contents: Data("x".utf8))
            var info = stat()
            if stat(probe, &info) == 0, Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9 > mark.timeIntervalSince1970 { return }
            usleep(10_000)
        }
    }
}

/// Saves photos whose names start with "cover"; anything else is not a cover.
struct CoverNameScanner: BatchScanning {
    let database: AppDatabase

    func scan(file: URL, batchItem: Int64?, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        guard file.lastPathComponent.hasPrefix("cover") else { throw ScanFailure.notIdentified }
        let album = Album(title: file.deletingPathExtension().lastPathComponent, artist: "Fleetwood Mac")
        return ScanResult(entry: try database.saveScan(of: album, method: .localMatch, completingBatchItem: batchItem!))
    }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        ScanResult(entry: try database.saveScan(of: candidate, method: .manual))
    }
}

/// The settle clock: moved only by the test.
final class TestNow: Sendable {
    private let value = Mutex(Date())

    var date: Date { value.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        value.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
