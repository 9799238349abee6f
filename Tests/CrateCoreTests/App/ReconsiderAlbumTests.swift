import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// "Not this album?" from an album's context menu: the runners-up of its newest scan, and a pick
/// that switches that scan even when it is not the last one made.
@Suite("Not this album? on an older scan")
@MainActor
struct ReconsiderAlbumTests {
    private let rumours = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000001", title: "Rumours", artist: "Fleetwood Mac")
    private let tusk = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000002", title: "Tusk", artist: "Fleetwood Mac")
    private let kindOfBlue = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000003", title: "Kind of Blue", artist: "Miles Davis")

    private func model(_ database: AppDatabase, _ directory: TemporaryDirectory) -> AppModel {
        AppModel(environment: AppEnvironment(paths: directory.paths, variables: [:], database: database),
                 player: LogPlayer(clock: ManualPlaybackClock(), log: PlaybackLog(fileURL: nil)))
    }

    @Test func offersTheNewestScansRunnersUpBestFirst() async throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        _ = try database.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 1),
                                  candidates: [ScanCandidate(album: kindOfBlue, score: 0.2)])
        let newest = try database.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 2),
                                           candidates: [ScanCandidate(album: tusk, score: 0.8), ScanCandidate(album: kindOfBlue, score: 0.4)])
        let albumID = try #require(newest.album.id)
        let found = try #require(await model(database, directory).reconsideration(albumID: albumID))
        #expect(found.entry.id == newest.id)
        #expect(found.candidates.map(\.album.title) == ["Tusk", "Kind of Blue"])
        #expect(found.candidates.map(\.score) == [0.8, 0.4])
        #expect(await model(database, directory).newestScanID(albumID: albumID) == newest.id)
    }

    @Test func anAlbumWithoutAScanHasNothingToReconsider() async throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let entry = try database.saveScan(of: rumours, method: .vision)
        _ = try database.deleteScan(id: entry.id)
        let albumID = try #require(entry.album.id)
        #expect(await model(database, directory).reconsideration(albumID: albumID) == nil)
        #expect(await model(database, directory).reconsideration(albumID: 9_999) == nil)
    }

    @Test func aPickSwitchesThatScanNotTheLastOne() async throws {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        let older = try database.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 1),
                                          candidates: [ScanCandidate(album: tusk, score: 0.8)])
        let last = try database.saveScan(of: kindOfBlue, method: .vision, at: Date(timeIntervalSince1970: 2))
        let store = ScanStore(scanner: ScanPipeline(database: database, paths: directory.paths, services: .offline), sleep: { _ in })
        store.choose(tusk, replacing: older)
        await store.waitUntilIdle()
        let titles = try database.read(HistoryPageRequest()).map(\.album.title)
        #expect(titles.contains("Tusk") && titles.contains("Kind of Blue") && !titles.contains("Rumours"), "got \(titles)")
        #expect(try database.read(HistoryPageRequest()).contains { $0.id == last.id }, "the last scan is untouched")
        #expect(try database.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title).sorted() == ["Kind of Blue", "Tusk"], "the wrong album left the crate")
    }
}
