import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// "Which pressing": the releases of an album's group, browsed page by page and ordered, and
/// switching the album to one of them in one transaction.
@Suite("Pressings")
struct PressingsTests {
    typealias F = PressingFixtures

    // MARK: - Browse

    @Test func everyPageIsReadAndTheListIsOrdered() async throws {
        let h = try PipelineHarness()
        // 103 releases: 100 on the first page (one unreadable), 3 on the second.
        let first = (0..<99).map { index in
            F.browseItem(F.Release(id: String(format: "%08d-1111-4111-8111-111111111111", index), date: "1980", country: "DE"))
        } + [#"{"id":17,"title":"broken"}"#]
        let second = [
            F.browseItem(F.Release(id: F.cd, date: "1977", country: "US", format: "CD")),
            F.browseItem(F.Release(id: "77777777-7777-4777-8777-777777777777", status: "Bootleg", date: "1976")),
            F.browseItem(F.Release(id: F.vinyl)),
        ]
        h.server.route("/ws/2/release") { request in
            request.queryItem("offset") == "100" ? .json(F.browsePage(second, count: 103, offset: 100))
                : .json(F.browsePage(first, count: 103, offset: 0))
        }
        let client = h.pipeline(identifier: nil).services.musicBrainz!
        let pressings = try await client.pressings(ofReleaseGroup: try MBID(F.group))

        let requests = h.server.requests(path: "/ws/2/release")
        #expect(requests.map { $0.queryItem("offset") } == ["0", "100"])
        #expect(requests.allSatisfy { $0.queryItem("inc") == "labels+media" && $0.queryItem("release-group") == F.group && $0.queryItem("limit") == "100" })
        #expect(pressings.count == 102)
        // Official first; "1977" before "1977-02-04"; then 1980; the bootleg, though oldest, last.
        #expect(pressings.prefix(2).map(\.releaseID.rawValue) == [F.cd, F.vinyl])
        #expect(pressings.last?.releaseID.rawValue == "77777777-7777-4777-8777-777777777777")
        #expect(pressings.last?.distinguishing?.hasSuffix(" · Bootleg") == true)
        let vinyl = try #require(pressings.first { $0.releaseID.rawValue == F.vinyl })
        #expect(vinyl.distinguishing == "12\" Vinyl · GB · 1977 · Warner Bros. Records · K 56344 · 075992731310")
        #expect(vinyl.facts.media == [ReleaseMedium(position: 1, format: "12\" Vinyl", title: nil, trackCount: 11)])
        #expect(vinyl.facts.packaging == "None" && vinyl.title == "Rumours")
    }

    @Test func orderingKeepsUnknownsLastAndTiesInMusicBrainzOrder() throws {
        func pressing(_ n: Int, status: String? = "Official", date: String?, country: String?) throws -> Pressing {
            Pressing(releaseID: try MBID(String(format: "%08d-2222-4222-8222-222222222222", n)), title: "X",
                     facts: ReleaseFacts(country: country, date: date, status: status))
        }
        let list = [try pressing(1, date: nil, country: "GB"), try pressing(2, status: nil, date: "1970", country: "GB"),
                    try pressing(3, date: "1977", country: nil), try pressing(4, date: "1977", country: "GB"),
                    try pressing(5, date: "1977", country: "GB"), try pressing(6, status: "official", date: "1978", country: "US")]
        let order = Pressing.ordered(list).map { Int($0.releaseID.rawValue.prefix(8))! }
        #expect(order == [4, 5, 3, 6, 1, 2])
        #expect(Pressing(releaseID: try MBID(F.cd), title: "", facts: ReleaseFacts()).distinguishing == nil)
    }

    @Test func aBrokenPageIsAClearErrorAndAnEmptyGroupIsNoPressings() async throws {
        let h = try PipelineHarness()
        h.server.route("/ws/2/release", responses: [.text("<html>busy</html>"), .json(F.browsePage([], count: 0, offset: 0))])
        let client = h.pipeline(identifier: nil).services.musicBrainz!
        await #expect(throws: MusicBrainzError.self) { try await client.pressings(ofReleaseGroup: try MBID(F.group)) }
        #expect(try await client.pressings(ofReleaseGroup: try MBID(F.group)).isEmpty)
    }

    // MARK: - Switch

    /// The vinyl Rumours in the crate with its track list and facts, a copy, wanted, a cover hash.
    private func vinylAlbum(_ h: PipelineHarness) throws -> Int64 {
        let entry = try h.database.saveScan(of: Album(musicBrainzReleaseID: F.vinyl, musicBrainzReleaseGroupID: F.group, title: "Rumours",
                                                      artist: "Fleetwood Mac", year: "1977", label: "Warner Bros. Records",
                                                      artworkStatus: .available, artworkPath: "old.jpg", thumbnailPath: "old-200.jpg"),
                                                method: .vision)
        let albumID = try #require(entry.album.id)
        let details = try decodeLookup(F.lookup(F.vinylRelease, titles: F.vinylTracks), id: F.vinyl)
        try h.database.saveReleaseDetails(albumID: albumID, details: details)
        try h.database.own(albumID: albumID, note: "gatefold")
        try h.database.want(albumID: albumID, at: Date(timeIntervalSince1970: 1_000_000))
        try h.database.saveCoverHash(CoverHash(pHash: 1, dHash: 2, dct256: Hash256(1, 2, 3, 4)), forAlbum: albumID)
        return albumID
    }

    private func decodeLookup(_ json: String, id: String) throws -> ReleaseDetails {
        ReleaseDetails(try JSONDecoder().decode(MBRelease.self, from: Data(json.utf8)), id: try MBID(id))
    }

    private func serveCD(_ h: PipelineHarness) {
        h.server.route("/ws/2/release/\(F.cd)", responses: [.json(F.lookup(F.cdRelease, titles: F.cdTracks))])
        h.server.route("/caa/release/\(F.cd)", responses: [.redirect(to: "/storage/\(F.cd)/index.json")])
        h.server.route("/storage/\(F.cd)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: F.cd, imageBase: h.server.url("/caa")))])
        h.server.route("/caa/img/\(F.cd)/30688716524-500.jpg", responses: [.data(h.coverData)])
    }

    @Test func switchingReplacesTracksFactsAndArtworkAndKeepsCopiesAndScans() async throws {
        let h = try PipelineHarness()
        let albumID = try vinylAlbum(h)
        serveCD(h)

        let switched = try await h.pipeline(identifier: nil).switchPressing(albumID: albumID, releaseID: F.cd.uppercased())

        #expect(switched.id == albumID)
        #expect(switched.musicBrainzReleaseID == F.cd && switched.musicBrainzReleaseGroupID == F.group)
        #expect(switched.year == "1987" && switched.title == "Rumours")
        #expect(try h.database.tracks(forAlbum: albumID).map(\.title) == F.cdTracks)
        let facts = try #require(try h.database.releaseFacts(albumID: albumID))
        #expect(facts.releaseID == F.cd && facts.barcode == "075992731020" && facts.formatSummary == "CD" && facts.country == "US")
        // The new release's art, fetched right away; the old files are not the album's any more.
        #expect(switched.artworkStatus == .available)
        #expect(switched.artworkPath != "old.jpg" && switched.artworkPath?.contains(F.cd) == true)
        #expect(try h.database.coverHash(forAlbum: albumID)?.pHash != 1)
        // What the user owns, wants and scanned stays with the album; the copy is still the vinyl.
        let state = try h.database.read(CollectionStateRequest(albumID: albumID))
        #expect(state.copies.map(\.releaseID) == [F.vinyl] && state.copies.first?.note == "gatefold")
        #expect(state.wantedAt == Date(timeIntervalSince1970: 1_000_000))
        #expect(try h.database.read(HistoryPageRequest()).filter { $0.album.id == albumID }.count == 1)
    }

    @Test func withoutArtTheSwitchLeavesTheCoverPendingAndNoStaleHash() async throws {
        let h = try PipelineHarness()
        let albumID = try vinylAlbum(h)
        h.server.route("/ws/2/release/\(F.cd)", responses: [.json(F.lookup(F.cdRelease, titles: F.cdTracks))])
        h.server.route("/caa/*", responses: [.text("down", status: 500)])

        let switched = try await h.pipeline(identifier: nil).switchPressing(albumID: albumID, releaseID: F.cd)

        #expect(switched.musicBrainzReleaseID == F.cd)
        #expect(switched.artworkStatus != .available && switched.artworkPath == nil && switched.thumbnailPath == nil)
        #expect(try h.database.coverHash(forAlbum: albumID) == nil)
    }

    @Test func aLookupOfTheOldPressingFinishingAfterTheSwitchIsNotSaved() throws {
        let h = try PipelineHarness()
        let albumID = try vinylAlbum(h)
        let old = try decodeLookup(F.lookup(F.vinylRelease, titles: F.vinylTracks), id: F.vinyl)
        try h.database.switchPressing(albumID: albumID, to: try decodeLookup(F.lookup(F.cdRelease, titles: F.cdTracks), id: F.cd))
        // A repair pass (or playback) that looked the vinyl up before the switch saves now.
        try h.database.saveReleaseDetails(albumID: albumID, details: old)
        #expect(try h.database.tracks(forAlbum: albumID).map(\.title) == F.cdTracks)
        #expect(try h.database.releaseFacts(albumID: albumID)?.releaseID == F.cd)
        #expect(try h.database.album(id: albumID)?.year == "1987")
    }

    @Test func aReleaseAlreadyInTheCrateTakesTheAlbumIn() async throws {
        let h = try PipelineHarness()
        let albumID = try vinylAlbum(h)
        let other = try h.database.saveScan(of: Album(musicBrainzReleaseID: F.cd, musicBrainzReleaseGroupID: F.group, title: "Rumours",
                                                      artist: "Fleetwood Mac", artworkStatus: .available, artworkPath: "cd.jpg"), method: .localMatch)
        let otherID = try #require(other.album.id)
        try h.database.own(albumID: otherID, format: "CD")
        serveCD(h)

        let switched = try await h.pipeline(identifier: nil).switchPressing(albumID: albumID, releaseID: F.cd)

        #expect(switched.id == otherID && switched.artworkPath == "cd.jpg")
        #expect(try h.database.album(id: albumID) == nil)
        let state = try h.database.read(CollectionStateRequest(albumID: otherID))
        #expect(Set(state.copies.compactMap(\.format)) == ["12\" Vinyl", "CD"])
        #expect(state.wantedAt == Date(timeIntervalSince1970: 1_000_000))
        #expect(try h.database.read(HistoryPageRequest()).filter { $0.album.id == otherID }.count == 2)
        #expect(try h.database.tracks(forAlbum: otherID).map(\.title) == F.cdTracks)
    }

    @Test func aReleaseOfAnotherGroupOrAFailedLookupChangesNothing() async throws {
        let h = try PipelineHarness()
        let albumID = try vinylAlbum(h)
        let before = try h.database.album(id: albumID)
        let tracksBefore = try h.database.tracks(forAlbum: albumID)
        let factsBefore = try h.database.releaseFacts(albumID: albumID)
        var foreign = F.cdRelease
        foreign.id = F.otherGroupRelease
        h.server.route("/ws/2/release/\(F.otherGroupRelease)", responses: [.json(F.lookup(foreign, group: F.otherGroup, titles: ["Other"]))])
        h.server.route("/ws/2/release/\(F.cd)", responses: [.text("oops", status: 500)])
        let pipeline = h.pipeline(identifier: nil)

        await #expect(throws: PressingError.notAPressing) { try await pipeline.switchPressing(albumID: albumID, releaseID: F.otherGroupRelease) }
        await #expect(throws: MusicBrainzError.self) { try await pipeline.switchPressing(albumID: albumID, releaseID: F.cd) }
        await #expect(throws: PressingError.invalidRelease("../etc")) { try await pipeline.switchPressing(albumID: albumID, releaseID: "../etc") }
        await #expect(throws: PressingError.albumNotFound) { try await pipeline.switchPressing(albumID: 999, releaseID: F.cd) }
        // The write refuses a foreign release on its own too.
        let details = try decodeLookup(F.lookup(foreign, group: F.otherGroup, titles: ["Other"]), id: F.otherGroupRelease)
        #expect(throws: PressingError.notAPressing) { try h.database.switchPressing(albumID: albumID, to: details) }

        #expect(try h.database.album(id: albumID) == before)
        #expect(try h.database.tracks(forAlbum: albumID) == tracksBefore)
        #expect(try h.database.releaseFacts(albumID: albumID) == factsBefore)
        #expect(try h.database.coverHash(forAlbum: albumID)?.pHash == 1)
        #expect(try h.database.read(CollectionStateRequest(albumID: albumID)).copies.count == 1)
    }

    @Test func anAlbumWithoutAReleaseGroupHasNoPressings() async throws {
        let h = try PipelineHarness()
        let entry = try h.database.saveScan(of: Album(title: "Demo", artist: "Nobody"), method: .manual)
        let pipeline = h.pipeline(identifier: nil)
        await #expect(throws: PressingError.noReleaseGroup) { try await pipeline.pressings(ofAlbum: entry.album.id ?? -1) }
        await #expect(throws: PressingError.noReleaseGroup) { try await pipeline.switchPressing(albumID: entry.album.id ?? -1, releaseID: F.cd) }
        #expect(h.server.requests.isEmpty)
        let offline = ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
        let vinylID = try vinylAlbum(h)
        await #expect(throws: PressingError.offline) { try await offline.pressings(ofAlbum: vinylID) }
    }
}
