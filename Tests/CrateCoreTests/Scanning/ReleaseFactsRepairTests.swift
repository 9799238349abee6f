import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Libraries from before release facts get them through the repair pass: at MusicBrainz's pace,
/// resumable, a release gone from MusicBrainz marked so and never asked about again.
@Suite("Release facts repair")
struct ReleaseFactsRepairTests {
    @Test func oldAlbumsGetTheirFactsAndAKilledPassResumes() async throws {
        let h = try PipelineHarness()
        let known = MusicBrainzFixtures.rumoursReleaseID
        let gone = "9f0e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f"
        h.server.route("/ws/2/release/\(known)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        h.server.route("/ws/2/release/\(gone)", responses: [.json(MusicBrainzFixtures.notFound, status: 404)])
        // Albums as an older Crate saved them: a release id, a track list, no facts.
        let first = try h.database.saveScan(of: Album(musicBrainzReleaseID: known, title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        let second = try h.database.saveScan(of: Album(musicBrainzReleaseID: gone, title: "Gone", artist: "Nobody"), method: .vision)
        _ = try h.database.saveScan(of: Album(title: "No Release", artist: "Anyone"), method: .vision)
        #expect(try h.database.countAlbumsAwaitingReleaseFacts() == 2)

        let pipeline = h.pipeline(identifier: nil)
        // One album, then the pass ends (as a kill would end it): the other waits for the next.
        let partial = await pipeline.repairReleaseFacts(limit: 1)
        #expect(partial.looked == 1 && partial.stored == 1 && partial.left == 1)
        let firstID = try #require(first.album.id)
        let facts = try #require(try h.database.releaseFacts(albumID: firstID))
        #expect(facts.releaseID == known)

        let rest = await pipeline.repairReleaseFacts()
        #expect(rest.looked == 1 && rest.stored == 0 && rest.left == 0)
        let secondID = try #require(second.album.id)
        #expect(try h.database.releaseFacts(albumID: secondID) == nil)
        // Nothing is asked twice.
        let requestsBefore = h.server.requests.count
        let again = await pipeline.repairReleaseFacts()
        #expect(again.looked == 0 && again.left == 0)
        #expect(h.server.requests.count == requestsBefore)
    }

    @Test func aServerDownStopsThePassAndKeepsTheAlbumsWaiting() async throws {
        let h = try PipelineHarness()
        var ids: [String] = []
        for index in 0..<5 {
            let id = String(format: "0000000%d-0000-4000-8000-000000000000", index)
            ids.append(id)
            h.server.route("/ws/2/release/\(id)", responses: [.text("oops", status: 500)])
            _ = try h.database.saveScan(of: Album(musicBrainzReleaseID: id, title: "Album \(index)", artist: "Artist"), method: .vision)
        }
        let summary = await h.pipeline(identifier: nil).repairReleaseFacts(maxConsecutiveFailures: 2)
        #expect(summary.looked == 2)
        #expect(summary.stoppedEarly != nil)
        #expect(summary.left == 5)
    }
}
