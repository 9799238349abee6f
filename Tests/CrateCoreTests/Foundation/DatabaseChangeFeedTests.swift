import CrateTestSupport
import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Database change feed")
@MainActor
struct DatabaseChangeFeedTests {
    @Test func aCommitReachesOnlySubscribersOfTheTablesItChanged() async throws {
        let db = try AppDatabase.inMemory()
        let scans = ChangeCounter(db.changes(in: [Scan.databaseTableName]))
        let usage = ChangeCounter(db.changes(in: [UsageRecord.databaseTableName]))
        try db.saveScan(of: .sample(), method: .vision)
        #expect(await waitUntil(scans) { scans.count == 1 } != nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(scans.count == 1, "one transaction, one announcement")
        #expect(usage.count == 0)
    }

    @Test func aRolledBackTransactionIsNotAnnounced() async throws {
        let db = try AppDatabase.inMemory()
        let albums = ChangeCounter(db.changes(in: [Album.databaseTableName]))
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.writer.write { db in
                var album = Album.sample()
                try album.insert(db)
                throw Abort()
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(albums.count == 0)
    }

    @Test func anotherConnectionsCommitIsAnnouncedAndOwnWritesOnlyOnce() async throws {
        let dir = try TemporaryDirectory()
        let db = try AppDatabase.open(paths: dir.paths, changePollInterval: .milliseconds(50))
        let albums = ChangeCounter(db.changes(in: [Album.databaseTableName]))
        try await Task.sleep(for: .milliseconds(100))  // The poller has read its baseline.

        try db.saveScan(of: .sample("Ours"), method: .vision)
        #expect(await waitUntil(albums) { albums.count == 1 } != nil)
        try await Task.sleep(for: .milliseconds(200))
        #expect(albums.count == 1, "the poller does not see this connection's own commit")

        let other = try AppDatabase.open(paths: dir.paths)
        try other.saveScan(of: .sample("Theirs"), method: .vision)
        #expect(await waitUntil(albums) { albums.count == 2 } != nil)
    }

    @Test func pollingRunsOnlyWhileSomeoneSubscribes() async throws {
        let dir = try TemporaryDirectory()
        let db = try AppDatabase.open(paths: dir.paths, changePollInterval: .milliseconds(20))
        #expect(!db.changeFeed.isPolling)
        let changes = db.changes(in: [Album.databaseTableName])
        // Iterated off the main actor: under a loaded machine's full run the main actor's queue
        // was so long that a main-actor listener's cancellation took over the 120 s ceiling.
        let listener = Task.detached { for await _ in changes {} }
        #expect(db.changeFeed.isPolling)
        listener.cancel()
        await listener.value  // The stream's end has run the feed's unsubscribe by now.
        #expect(!db.changeFeed.isPolling)
        #expect(db.changeFeed.subscriberCount == 0)
    }

    @Test func anInMemoryDatabaseNeverPolls() async throws {
        let db = try AppDatabase.inMemory()
        let counter = ChangeCounter(db.changes(in: [Album.databaseTableName]))
        #expect(!db.changeFeed.isPolling)
        counter.cancel()
    }
}
