@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// "Tell Crate what it is": the user names the album, MusicBrainz's releases that fit are listed,
/// and the one chosen is saved as a scan (method manual) with its details; a photo that was not
/// identified leaves History's list in the same transaction.
@Suite("Tell Crate what it is")
struct ManualIdentificationTests {
    @Test func artistAndTitleAreNeededAndAYearIsAYear() throws {
        #expect(throws: ManualIdentificationError.missingArtist) { try ManualIdentification(artist: "  ", title: "Rumours") }
        #expect(throws: ManualIdentificationError.missingTitle) { try ManualIdentification(artist: "Fleetwood Mac", title: "\n") }
        #expect(throws: ManualIdentificationError.invalidYear("77")) { try ManualIdentification(artist: "Fleetwood Mac", title: "Rumours", year: "77") }
        #expect(throws: ManualIdentificationError.invalidYear("3001")) { try ManualIdentification(artist: "A", title: "B", year: "3001") }
        let manual = try ManualIdentification(artist: " Fleetwood Mac ", title: "Rumours", year: "", label: " ", catalogNumber: " K 56344 ")
        #expect(manual.artist == "Fleetwood Mac" && manual.year == nil && manual.label == nil && manual.catalogNumber == "K 56344")
        #expect(!ManualIdentificationError.missingArtist.message.isEmpty)
    }

    @Test func theReleasesThatFitAreListedBestFirstAndACatalogueNumberIsSearchedFirst() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let pipeline = h.pipeline(identifier: nil)
        let found = try await pipeline.candidates(for: ManualIdentification(artist: "Fleetwood Mac", title: "Rumours", catalogNumber: "K 56344"))
        #expect(found.first?.album.musicBrainzReleaseID == MusicBrainzFixtures.rumoursReleaseID)
        #expect(found.first?.score ?? 0 > 0.9)
        let queries = h.server.requests.filter { $0.path == "/ws/2/release" }.compactMap { $0.queryItem("query") }
        #expect(queries.first?.contains("catno") == true, "\(queries)")
    }

    @Test func offlineItSaysSoAndSavesNothing() async throws {
        let h = try PipelineHarness()
        let pipeline = ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
        await #expect(throws: ManualIdentificationError.offline) {
            try await pipeline.candidates(for: ManualIdentification(artist: "Fleetwood Mac", title: "Rumours"))
        }
        #expect(try h.database.read(HistoryPageRequest()).isEmpty)
    }

    @Test func theChosenReleaseIsSavedAsAManualScanWithItsDetails() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let pipeline = h.pipeline(identifier: nil)
        let chosen = try #require(try await pipeline.candidates(for: ManualIdentification(artist: "Fleetwood Mac", title: "Rumours")).first)
        let result = try await pipeline.identify(as: chosen.album)
        #expect(result.entry.scan.method == .manual)
        #expect(result.entry.album.musicBrainzReleaseID == MusicBrainzFixtures.rumoursReleaseID)
        #expect(result.verdict?.kind == .new)
        let album = try #require(try h.database.album(id: result.entry.album.id ?? -1))
        #expect(album.artworkStatus == .available)
        #expect(try h.database.coverHash(forAlbum: album.id ?? -1) != nil)
    }

    @Test func aPhotoThatWasNotIdentifiedLeavesHistorysListInTheSameSave() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let photo = h.directory.url.appendingPathComponent("mystery.jpg")
        try h.coverData.write(to: photo)
        try h.database.enqueueBatch(paths: [photo.path])
        let item = try #require(try h.database.claimBatchItem(path: photo.path))
        try h.database.failBatchItem(id: item.id ?? -1, error: ScanFailure.notIdentified.message)
        let unscanned = try #require(try h.database.read(UnscannedPhotosRequest()).first)

        let pipeline = h.pipeline(identifier: nil)
        let chosen = try #require(try await pipeline.candidates(for: ManualIdentification(artist: "Fleetwood Mac", title: "Rumours")).first)
        let result = try await pipeline.identify(as: chosen.album, unscannedPhoto: unscanned.id)
        #expect(result.entry.scan.method == .manual)
        #expect(try h.database.read(UnscannedPhotosRequest()).isEmpty)
        // Saved once: a second try on the same photo is refused, nothing added.
        await #expect(throws: BatchQueueError.notPending(path: photo.path)) { try await pipeline.identify(as: chosen.album, unscannedPhoto: unscanned.id) }
        #expect(try h.database.read(HistoryPageRequest()).count == 1)
    }
}
