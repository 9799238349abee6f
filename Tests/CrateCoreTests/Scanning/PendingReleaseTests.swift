import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("A MusicBrainz search that did not happen")
struct PendingReleaseTests {
    private let photo = ImageFixtures.url("photos/cover-00-photo-0.jpg")

    /// Bug: when the MusicBrainz search failed (503 twice, silence, a reply that could not be
    /// read), the album was saved without a release id and its artwork and track list marked
    /// `unavailable`; `crate repair` found "0 of 0" and the album stayed half for good. The search
    /// that did not happen is now pending, and the repair pass makes it.
    @Test("A failed search leaves the album pending, and repair finds its release, tracks and artwork")
    func aFailedSearchIsPendingAndRepaired() async throws {
        let h = try PipelineHarness()
        h.server.route("/ws/2/*", responses: [.text("busy", status: 503)])
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        let result = try await pipeline.scan(file: photo) { _ in }
        #expect(result.entry.album.musicBrainzReleaseID == nil)
        #expect(result.entry.album.tracksStatus == .pending)
        #expect(result.entry.album.artworkStatus == .pending)
        #expect(try h.database.detailsCounts().tracksPending == 1)

        h.serveRumours()
        let summary = await pipeline.repairPendingDetails()
        #expect(summary.tried == 1)
        #expect(summary.completed == 1)
        let album = try #require(try h.database.album(id: result.entry.album.id ?? -1))
        #expect(album.musicBrainzReleaseID == MusicBrainzFixtures.rumoursReleaseID)
        #expect(album.tracksStatus == .ok)
        #expect(album.artworkStatus == .available)
        #expect(try !h.database.tracks(forAlbum: album.id ?? -1).isEmpty)
        #expect(try h.database.counts().albums == 1)
    }

    /// Bug: scanning the same photo again after a failed search added a second album, and once
    /// MusicBrainz answered a third. The scans of one answer now share one album: a re-scan while
    /// the search still fails reuses the waiting album, and the scan that finds the release takes it in.
    @Test("Scanning again while the search fails, then when it works, keeps one album")
    func rescansNeverDuplicate() async throws {
        let h = try PipelineHarness()
        h.server.route("/ws/2/*", responses: [.text("busy", status: 503)])
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        _ = try await pipeline.scan(file: photo) { _ in }
        _ = try await pipeline.scan(file: photo) { _ in }
        #expect(try h.database.counts() == AppDatabase.Counts(albums: 1, scans: 2, reviews: 0))

        h.serveRumours()
        let found = try await pipeline.scan(file: photo) { _ in }
        #expect(found.entry.album.musicBrainzReleaseID == MusicBrainzFixtures.rumoursReleaseID)
        #expect(try h.database.counts() == AppDatabase.Counts(albums: 1, scans: 3, reviews: 0))
        #expect(try h.database.detailsCounts() == DetailsCounts(tracksPending: 0, tracksFailed: 0, artworkPending: 0, artworkFailed: 0))
    }

    @Test("Repair merges a pending album into the crate's album for the same release")
    func repairMergesIntoTheExistingAlbum() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        let first = try await pipeline.scan(file: photo) { _ in }
        // MusicBrainz down for the next scan: saved as a pending album (same answer, different case).
        h.server.route("/ws/2/release", responses: [.text("busy", status: 503)])
        let existing = try #require(first.entry.album.id)
        let pending = try h.database.saveScan(of: Album(title: "RUMOURS", artist: "fleetwood mac"), method: .vision, lookup: .pending)
        #expect(pending.album.id != existing)
        #expect(try h.database.counts().albums == 2)

        h.serveRumours()
        let summary = await pipeline.repairPendingDetails()
        #expect(summary.completed == 1)
        #expect(try h.database.counts() == AppDatabase.Counts(albums: 1, scans: 2, reviews: 0))
        #expect(try h.database.album(id: pending.album.id ?? -1) == nil)
        #expect(try h.database.album(id: existing)?.tracksStatus == .ok)
    }

    @Test("A search that answers with no match settles the album: nothing more to fetch")
    func aSearchWithNoMatchSettles() async throws {
        let h = try PipelineHarness()
        let entry = try h.database.saveScan(of: Album(title: "Nobody Knows", artist: "No One"), method: .vision, lookup: .pending)
        h.server.route("/ws/2/release", responses: [.json(#"{"count":0,"offset":0,"releases":[]}"#)])
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        let summary = await pipeline.repairPendingDetails()
        #expect(summary.completed == 1)
        let album = try #require(try h.database.album(id: entry.album.id ?? -1))
        #expect(album.tracksStatus == .unavailable)
        #expect(album.artworkStatus == .unavailable)
    }
}
