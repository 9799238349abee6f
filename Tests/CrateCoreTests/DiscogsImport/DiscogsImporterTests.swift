@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

@Suite("Discogs import")
struct DiscogsImporterTests {
    let server: FixtureServer
    let clock = TestClock()

    init() throws {
        server = try FixtureServer()
    }

    func musicBrainz() -> MusicBrainzClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        return MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "mailto:test@example.org")
    }

    func rows(_ records: [DiscogsImportFixtures.Record]) -> Int { records.reduce(0) { $0 + $1.copies } }

    func copies(_ database: AppDatabase) throws -> Int {
        try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM album_copy") ?? 0 }
    }

    @Test func aCollectionBecomesOwnedAlbumsInBatchedSearches() async throws {
        let records = DiscogsImportFixtures.collection(count: 600)
        let search = MusicBrainzBatchSearchFixture(records: records)
        search.serve(on: server)
        let database = try AppDatabase.inMemory()
        let items = try DiscogsCSVReader.read(Data(DiscogsImportFixtures.csv(records).utf8))
        let job = try database.stageDiscogsImport(items, source: "csv", name: "export.csv")
        #expect(job.staged == rows(records) && job.skipped == 0)

        let summary = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        let unknown = records.filter { $0.mbid == nil }
        #expect(summary.stoppedEarly == nil)
        #expect(summary.progress.done == rows(records))
        #expect(summary.progress.discogsOnly == rows(unknown))
        #expect(summary.progress.matched == rows(records) - rows(unknown))
        // 600 rows: 12 catalogue-number queries, 2 title queries and the unknown ones one by one.
        #expect(summary.progress.requests <= 12 + 2 + unknown.count + 2, "\(summary.progress.requests) requests")
        #expect(search.requestCount == summary.progress.requests)
        // At MusicBrainz's pace: every request at least 1.1 s after the one before.
        #expect(clock.sleeps.allSatisfy { $0 >= 0 })

        // Every row is one copy (a release owned twice is two), with the Discogs format and note.
        #expect(try copies(database) == rows(records))
        let matched = try #require(records.first { $0.mbid != nil && $0.catalogNumber != "none" && $0.artist != "Various" })
        let album = try #require(try database.read { try Album.fetchOne($0, sql: "SELECT * FROM album WHERE mbReleaseId = ?", arguments: [matched.mbid]) })
        #expect(album.title == matched.title && album.artworkStatus == .pending)
        let state = try database.read(CollectionStateRequest(albumID: album.id ?? 0))
        #expect(state.copies.first?.format == matched.format && state.copies.first?.releaseID == matched.mbid)
        let link = try database.discogsState(forAlbum: album.id ?? 0)
        guard case .linked(let found) = link else { Issue.record("no Discogs link"); return }
        #expect(found.releaseID == matched.releaseID)
        // "Various" found "Various Artists"; a catalogue number shared with another label's release picked the right one.
        let various = try #require(records.first { $0.artist == "Various" && $0.mbid != nil && $0.catalogNumber != "none" })
        #expect(try database.read { try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM album WHERE mbReleaseId = ?)", arguments: [various.mbid]) } == true)
        let twin = try #require(records.first { $0.releaseID % 50 == 0 && $0.mbid != nil && $0.catalogNumber != "none" })
        #expect(try database.read { try String.fetchOne($0, sql: "SELECT mbReleaseId FROM discogs_import_item WHERE releaseId = ?", arguments: [twin.releaseID]) } == twin.mbid)
        // Never a price: nothing stored holds one.
        let dump = try database.read { db in try String.fetchAll(db, sql: "SELECT COALESCE(note, '') || COALESCE(format, '') FROM album_copy") }.joined()
        #expect(!dump.contains("$") && !dump.contains("price"))

        // The unknown records are kept as Discogs-only albums, owned, listed and searchable.
        let only = try database.discogsOnlyItems()
        #expect(only.count == rows(unknown))
        #expect(only.allSatisfy { $0.albumID != nil })
        let one = try #require(unknown.first)
        #expect(try database.discogsOnlyItems(search: String(one.title.prefix(12))).contains { $0.item.releaseID == one.releaseID })

        // Importing the same file again adds nothing.
        let again = try database.stageDiscogsImport(items, source: "csv", name: "export.csv")
        #expect(again.staged == 0 && again.skipped == items.count)
        _ = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(try copies(database) == rows(records))

        // A later import's progress counts its own records only.
        var more = DiscogsImportFixtures.collection(count: 30, seed: 99)
        for index in more.indices { more[index].releaseID += 9_000_000 }
        try database.stageDiscogsImport(try DiscogsCSVReader.read(Data(DiscogsImportFixtures.csv(more).utf8)), source: "csv", name: "more.csv")
        let later = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(later.progress.total == rows(more) && later.progress.done == rows(more))
        #expect(try database.discogsImportCounts().total == rows(records) + rows(more))
    }

    @Test func anInterruptedImportGoesOnWithNothingTwiceAndNothingLost() async throws {
        let records = DiscogsImportFixtures.collection(count: 300, seed: 7)
        let search = MusicBrainzBatchSearchFixture(records: records)
        let calls = EventCounter()
        // MusicBrainz stops answering after three searches (503 to the retry too), then comes back.
        server.route("/ws/2/release") { request in
            calls.signal()
            let n = calls.count
            return (4...5).contains(n) ? .json(#"{"error":"busy"}"#, status: 503) : search.answer(request)
        }
        let database = try AppDatabase.inMemory()
        try database.stageDiscogsImport(try DiscogsCSVReader.read(Data(DiscogsImportFixtures.csv(records).utf8)), source: "csv", name: "a.csv")
        let first = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(first.stoppedEarly != nil)
        #expect(first.progress.done < rows(records) && first.progress.matched > 0)
        #expect(try copies(database) == first.progress.done)

        let second = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(second.stoppedEarly == nil && second.progress.done == rows(records))
        #expect(try copies(database) == rows(records))
        let doubled = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM (SELECT releaseId, copyIndex FROM discogs_import_item GROUP BY releaseId, copyIndex HAVING COUNT(*) > 1)") }
        #expect(doubled == 0)
    }

    @Test func aBusyMusicBrainzIsWaitedOutOnce() async throws {
        let records = DiscogsImportFixtures.collection(count: 120, seed: 3)
        let search = MusicBrainzBatchSearchFixture(records: records)
        search.busyEvery = 2
        search.serve(on: server)
        let database = try AppDatabase.inMemory()
        try database.stageDiscogsImport(try DiscogsCSVReader.read(Data(DiscogsImportFixtures.csv(records).utf8)), source: "csv", name: "a.csv")
        let summary = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(summary.stoppedEarly == nil && summary.progress.done == rows(records))
        #expect(server.requests.contains { $0.path == "/ws/2/release" } && clock.sleeps.contains { $0 >= 1 })
    }

    @Test func anotherProcessImportingKeepsThisOneOut() async throws {
        let database = try AppDatabase.inMemory()
        let other = BatchLeaseOwner(host: "elsewhere", processID: 1, startTime: 1)
        #expect(try database.claimDiscogsImport(owner: other))
        await #expect(throws: DiscogsImportError.importingElsewhere) {
            _ = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        }
        // Its lease lapses: this one takes over.
        #expect(try database.claimDiscogsImport(owner: database.leaseOwner, now: Date().addingTimeInterval(600)))
    }

    @Test func repairMatchesDiscogsOnlyRecordsOnceMusicBrainzKnowsThem() async throws {
        var records = DiscogsImportFixtures.collection(count: 60, seed: 11)
        let database = try AppDatabase.inMemory()
        let unknown = records.indices.filter { $0 % 10 == 0 }
        let known = records
        for index in unknown { records[index].mbid = nil }
        let before = MusicBrainzBatchSearchFixture(records: records)
        let after = MusicBrainzBatchSearchFixture(records: known)
        let phase = EventCounter()
        server.route("/ws/2/release") { request in phase.count == 0 ? before.answer(request) : after.answer(request) }
        try database.stageDiscogsImport(try DiscogsCSVReader.read(Data(DiscogsImportFixtures.csv(records).utf8)), source: "csv", name: "a.csv")
        let first = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        #expect(first.progress.discogsOnly == rows(records.filter { $0.mbid == nil }))
        let copiesBefore = try copies(database)

        phase.signal()
        #expect(try database.requeueDiscogsOnly() == first.progress.discogsOnly)
        let second = try await DiscogsImporter(database: database, musicBrainz: musicBrainz()).run()
        let stillUnknown = known.filter { $0.mbid == nil }
        #expect(second.progress.discogsOnly == rows(stillUnknown))
        #expect(try copies(database) == copiesBefore)
        let noRelease = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM album WHERE mbReleaseId IS NULL") }
        #expect(noRelease == stillUnknown.count)
    }
}
