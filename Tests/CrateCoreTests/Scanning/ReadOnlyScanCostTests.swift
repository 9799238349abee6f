import CrateTestSupport
import Foundation
import Synchronization
import Testing
@testable import CrateCore

@Suite("A library that cannot save never pays")
struct ReadOnlyScanCostTests {
    /// Bug: a read-only or newer-schema library still paid for each identification attempt (4
    /// attempts, 4 paid calls), then failed to save. A scan now says it cannot save before the
    /// provider is asked.
    @Test func aNewerLibraryRefusesTheScanBeforeThePaidCall() async throws {
        let directory = try TemporaryDirectory()
        try Self.markWrittenByANewerCrate(directory.paths)
        let database = try AppDatabase.open(paths: directory.paths)
        #expect(database.isReadOnly)
        let identifier = ReadOnlyCountingIdentifier()
        let pipeline = ScanPipeline(database: database, paths: directory.paths, services: ScanPipeline.Services(identifier: identifier))
        for _ in 1...4 {
            await #expect(throws: CrateError.databaseReadOnly) {
                _ = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
            }
        }
        #expect(identifier.calls == 0)
    }

    /// Simulates a future build's migration (synchronous GRDB calls, outside the async test).
    private static func markWrittenByANewerCrate(_ paths: CratePaths) throws {
        let db = try AppDatabase.open(paths: paths)
        try db.writer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
        _ = try db.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }
}

private final class ReadOnlyCountingIdentifier: CoverIdentifying, Sendable {
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    func identify(photoJPEG: Data) async throws -> VisionAnswer? {
        count.withLock { $0 += 1 }
        return VisionAnswer(artist: "Fleetwood Mac", album: "Rumours", year: "1977", confidence: 0.9, usedSearch: false)
    }
}
