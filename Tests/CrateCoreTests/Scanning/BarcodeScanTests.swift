import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// A scan by barcode: the crate first (offline, no request), then MusicBrainz's `barcode:` search;
/// the verdict comes with it.
@Suite("Barcode scans")
struct BarcodeScanTests {
    @Test func anOwnedRecordIsFoundOfflineWithItsVerdict() async throws {
        let h = try PipelineHarness()
        let id = MusicBrainzFixtures.rumoursReleaseID
        let entry = try h.database.saveScan(of: Album(musicBrainzReleaseID: id, title: "Rumours", artist: "Fleetwood Mac"), method: .vision,
                                            at: Date(timeIntervalSince1970: 1_000_000))
        let albumID = try #require(entry.album.id)
        try h.database.saveReleaseDetails(albumID: albumID, genres: [], label: nil, year: nil, releaseGroupID: nil, tracks: [],
                                          facts: ReleaseFacts(releaseID: id, barcode: "075992731317",
                                                              media: [ReleaseMedium(position: 1, format: "12\" Vinyl", title: nil, trackCount: 11)]))
        try h.database.own(albumID: albumID)
        // Typed as the 13-digit EAN: the same record.
        let result = try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
            .scan(barcode: try Barcode(typed: "0075992731317"))
        #expect(result.entry.album.id == albumID)
        #expect(result.entry.scan.method == .barcode)
        #expect(result.verdict?.kind == .owned)
        #expect(result.verdict?.copies.first?.summary == "12\" Vinyl")
        #expect(h.server.requests.isEmpty)
    }

    @Test func anUnknownBarcodeIsSearchedOnMusicBrainz() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let result = try await h.pipeline(identifier: nil).scan(barcode: try Barcode(typed: "075992731317"))
        // The search's releases (the fixture answers with several): the best kept, the others offered.
        #expect(result.entry.album.musicBrainzReleaseID != nil)
        #expect(!result.rankedCandidates.isEmpty)
        #expect(result.verdict?.kind == .new)
        let query = try #require(h.server.requests.first { $0.path == "/ws/2/release" }?.queryItem("query"))
        #expect(query == "(barcode:075992731317 OR barcode:0075992731317)")
    }

    @Test func nothingFoundIsNotIdentifiedAndSavesNothing() async throws {
        let h = try PipelineHarness()
        h.server.route("/ws/2/release", responses: [.json(#"{"count":0,"releases":[]}"#)])
        await #expect(throws: ScanFailure.notIdentified) {
            try await h.pipeline(identifier: nil).scan(barcode: try Barcode(typed: "5099902943527"))
        }
        #expect(try h.database.counts().scans == 0)
    }

    @Test func offlineAndNotInTheCrateSaysSo() async throws {
        let h = try PipelineHarness()
        await #expect(throws: ScanFailure.notIdentified) {
            try await ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline).scan(barcode: try Barcode(typed: "5099902943527"))
        }
    }
}
