@testable import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// Counts paid identifications; answers as a provider with an identity would.
final class CountingIdentifier: CoverIdentifying, Sendable {
    private let base: ScriptedIdentifier
    private let count = Mutex(0)
    let identity: String?
    init(_ base: ScriptedIdentifier, identity: String = "anthropic/test-model") {
        self.base = base
        self.identity = identity
    }
    var calls: Int { count.withLock { $0 } }

    func identify(photoJPEG: Data) async throws -> VisionAnswer? {
        count.withLock { $0 += 1 }
        return try await base.identify(photoJPEG: photoJPEG)
    }
}

/// docs/reliability.md #19: a paid identification is kept, so the same photo is never paid twice.
@Suite("Identification journal")
struct IdentificationJournalTests {
    static let photo = ImageFixtures.url("photos/cover-00-photo-0.jpg")
    static let answer = VisionAnswer(artist: "Fleetwood Mac", album: "Rumours", year: "1977", confidence: 0.9, usedSearch: false)

    static func digest() throws -> String {
        PhotoDigest.of(try ImagePreparer().preparePhoto(at: photo).visionJPEG)
    }

    /// Bug: a scan killed after the provider answered but before the save paid for the same
    /// identification again on the next run.
    @Test func aScanKilledAfterTheAnswerDoesNotPayAgain() async throws {
        // Given an answer paid for by an attempt that died before its save
        let h = try PipelineHarness()
        h.serveRumours()
        try h.database.journalIdentification(Self.answer, photoDigest: try Self.digest(), identity: "anthropic/test-model")

        // When the photo is scanned again
        let identifier = CountingIdentifier(.rumours)
        let result = try await h.pipeline(identifier: identifier).scan(file: Self.photo) { _ in }

        // Then nothing is paid, and the scan is saved from the kept answer
        #expect(identifier.calls == 0)
        #expect(result.entry.album.title == "Rumours")
        #expect(result.entry.scan.method == .vision)
    }

    @Test func anAnswerIsKeptTheMomentItArrives() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let identifier = CountingIdentifier(.rumours)
        _ = try await h.pipeline(identifier: identifier).scan(file: Self.photo) { _ in }
        #expect(identifier.calls == 1)
        #expect(try h.database.journaledIdentification(photoDigest: try Self.digest(), identity: "anthropic/test-model")?.album == "Rumours")
    }

    @Test func anotherProviderOrAnExpiredAnswerIsAskedAgain() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let digest = try Self.digest()
        try h.database.journalIdentification(Self.answer, photoDigest: digest, identity: "openai/gpt")
        let other = CountingIdentifier(.rumours)
        _ = try await h.pipeline(identifier: other).scan(file: Self.photo) { _ in }
        #expect(other.calls == 1, "kept for another provider")

        let later = Date().addingTimeInterval(AppDatabase.identificationJournalLifetime + 60)
        #expect(try h.database.journaledIdentification(photoDigest: digest, identity: "anthropic/test-model", at: later) == nil)
    }

    @Test func aScriptedIdentifierWithoutIdentityIsNotKept() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        _ = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: Self.photo) { _ in }
        #expect(try await h.database.reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM identification_journal") } == 0)
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
