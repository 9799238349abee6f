@testable import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// Counts paid identifications.
final class CountingIdentifier: CoverIdentifying, Sendable {
    private let base: ScriptedIdentifier
    private let count = Mutex(0)
    init(_ base: ScriptedIdentifier) { self.base = base }
    var calls: Int { count.withLock { $0 } }

    func identify(photoJPEG: Data) async throws -> VisionAnswer? {
        count.withLock { $0 += 1 }
        return try await base.identify(photoJPEG: photoJPEG)
    }
}

/// docs/reliability.md #19: a queued photo's paid identification is kept until its scan is saved.
@Suite("Identification journal")
struct IdentificationJournalTests {
    /// Bug: a run killed after the provider answered but before the save paid for the same
    /// identification again on resume.
    @Test func aResumedPhotoReusesTheAnswerItAlreadyPaidFor() async throws {
        // Given a queued photo whose first attempt got its answer and then died before the save
        let h = try PipelineHarness()
        h.serveRumours()
        let photo = ImageFixtures.url("photos/cover-00-photo-0.jpg")
        try h.database.enqueueBatch(paths: [photo.path])
        let item = try #require(try h.database.claimNextBatchItem(maxAttempts: 3))
        let answer = VisionAnswer(artist: "Fleetwood Mac", album: "Rumours", year: "1977", confidence: 0.9, usedSearch: false)
        try h.database.recordIdentification(answer, batchItem: try #require(item.id))

        // When the next run scans it
        let identifier = CountingIdentifier(.rumours)
        let result = try await h.pipeline(identifier: identifier).scan(file: photo, batchItem: item.id) { _ in }

        // Then nothing is paid again, and the scan is saved from the recorded answer
        #expect(identifier.calls == 0)
        #expect(result.entry.album.title == "Rumours")
        #expect(result.entry.scan.method == .vision)
    }

    @Test func aFreshQueuedPhotoRecordsItsAnswerBeforeSaving() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let photo = ImageFixtures.url("photos/cover-00-photo-0.jpg")
        try h.database.enqueueBatch(paths: [photo.path])
        let item = try #require(try h.database.claimNextBatchItem(maxAttempts: 3))
        let identifier = CountingIdentifier(.rumours)
        _ = try await h.pipeline(identifier: identifier).scan(file: photo, batchItem: item.id) { _ in }
        #expect(identifier.calls == 1)
        #expect(try h.database.recordedIdentification(batchItem: try #require(item.id))?.album == "Rumours")
    }

    @Test func aNamedFileOutsideTheQueueIsNotJournaled() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let identifier = CountingIdentifier(.rumours)
        _ = try await h.pipeline(identifier: identifier).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        #expect(identifier.calls == 1)
    }
}

@Suite("Repair pass and albums without a release")
struct RepairWithoutReleaseTests {
    /// Bug: the repair pass "finished" an album with no MusicBrainz release by replacing its
    /// track list with nothing, deleting tracks it already had.
    @Test func aStoredTrackListIsKeptWhenThereIsNoReleaseToLookUp() async throws {
        let h = try PipelineHarness()
        let entry = try h.database.saveScan(of: Album(title: "Home Tapes", artist: "Nobody Known"), method: .manual)
        let albumID = try #require(entry.album.id)
        try h.database.replaceTracks([Track(albumID: albumID, disc: 1, position: 1, title: "One", durationMs: 1_000)], forAlbum: albumID)
        try await h.database.writer.write { db in try db.execute(sql: "UPDATE album SET tracksStatus = 'pending' WHERE id = ?", arguments: [albumID]) }

        _ = await h.pipeline(identifier: nil).repairPendingDetails()

        #expect(try h.database.tracks(forAlbum: albumID).count == 1)
        #expect(try h.database.album(id: albumID)?.tracksStatus == .ok)
    }
}
