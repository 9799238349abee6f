import CrateTestSupport
import Foundation
import GRDB
import Testing
@testable import CrateCore

/// "Not this album?" through the pipeline, offline: the switch is one transaction.
@Suite("Choosing a candidate")
struct ChooseCandidateTests {
    private let rumours = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000001", title: "Rumours", artist: "Fleetwood Mac")
    private let tusk = Album(musicBrainzReleaseID: "aaaaaaaa-0000-0000-0000-000000000002", title: "Tusk", artist: "Fleetwood Mac")

    private func offlinePipeline() throws -> (ScanPipeline, AppDatabase, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.inMemory()
        return (ScanPipeline(database: database, paths: directory.paths, services: .offline), database, directory)
    }

    @Test func theWronglyIdentifiedAlbumLeavesTheCrate() async throws {
        let (pipeline, database, directory) = try offlinePipeline()
        let wrong = try database.saveScan(of: rumours, method: .vision)
        let chosen = try await pipeline.choose(tusk, replacing: wrong.scan.id!)
        #expect(try database.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title) == ["Tusk"], "Rumours had no scan left")
        #expect(try database.read(HistoryPageRequest()).map(\.album.title) == ["Tusk"])
        #expect(chosen.candidates.map(\.title) == ["Rumours"], "the first answer is offered back")
        #expect(try database.candidates(forScan: chosen.entry.id).map(\.album.title) == ["Rumours"], "and saved with the new scan")
        _ = directory
    }

    @Test func anAlbumWithOtherScansStays() async throws {
        let (pipeline, database, directory) = try offlinePipeline()
        try database.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 1))
        let wrong = try database.saveScan(of: rumours, method: .vision, at: Date(timeIntervalSince1970: 2))
        _ = try await pipeline.choose(tusk, replacing: wrong.scan.id!)
        #expect(try database.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title).sorted() == ["Rumours", "Tusk"])
        #expect(try database.read(HistoryPageRequest()).map(\.album.title) == ["Tusk", "Rumours"])
        _ = directory
    }

    @Test func aFailedSwitchKeepsTheOriginalScan() async throws {
        let (pipeline, database, directory) = try offlinePipeline()
        let wrong = try database.saveScan(of: rumours, method: .vision)
        // Any failure after the old scan is gone (here: saving the new scan) must undo the whole switch.
        try await database.writer.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_scans BEFORE INSERT ON scan BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        do {
            _ = try await pipeline.choose(tusk, replacing: wrong.scan.id!)
            Issue.record("the switch should have failed")
        } catch {}
        #expect(try database.read(HistoryPageRequest()).map(\.scan.id) == [wrong.scan.id], "the original scan is still there")
        #expect(try database.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title) == ["Rumours"])
        _ = directory
    }
}
