import Foundation
import Testing
@testable import CrateCore

/// Files dropped on the window live in the bulk queue until their scan is saved, so a killed
/// session loses none of them.
@Suite("Queued scanner")
struct QueuedScannerTests {
    private func file(_ name: String) -> URL { URL(fileURLWithPath: "/photos/\(name).jpg") }

    @Test func droppedFilesSurviveARestartUntilScanned() async throws {
        // Given: three files dropped, one scanned, then the app is killed
        let db = try AppDatabase.inMemory()
        let first = QueuedScanner(queue: BatchQueue(database: db), scanner: ScriptedBatchScanner(database: db))
        try first.remember([file("good"), file("unknown"), file("later")])
        _ = try await first.scan(file: file("good")) { _ in }
        // When: the next session starts
        let second = QueuedScanner(queue: BatchQueue(database: db), scanner: ScriptedBatchScanner(database: db))
        // Then: only the unscanned files come back, in order
        #expect(try second.unfinishedFiles() == [file("unknown"), file("later")])
        await #expect(throws: ScanFailure.notIdentified) {
            try await second.scan(file: file("unknown")) { _ in }
        }
        #expect(try second.unfinishedFiles() == [file("later")], "a photo that cannot be identified is not resumed forever")
        #expect(try db.counts().scans == 1)
    }

    @Test func aFileScannedWithoutBeingRememberedIsStillRecorded() async throws {
        let db = try AppDatabase.inMemory()
        let scanner = QueuedScanner(queue: BatchQueue(database: db), scanner: ScriptedBatchScanner(database: db))
        let result = try await scanner.scan(file: file("good")) { _ in }
        let item = try #require(try db.batchItems().first)
        #expect(item.state == .done && item.scanID == result.entry.scan.id)
    }

    @Test func aWrongKeyLeavesTheFileWaitingWithItsAttemptsIntact() async throws {
        let db = try AppDatabase.inMemory()
        let scanner = QueuedScanner(queue: BatchQueue(database: db), scanner: ScriptedBatchScanner(database: db))
        await #expect(throws: ScanFailure.providerKey("wrong key")) {
            try await scanner.scan(file: file("key")) { _ in }
        }
        let item = try #require(try db.batchItems().first)
        #expect(item.state == .pending && item.attempts == 0)
    }
}
