@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// Two Crates with one Discogs account converge (docs/decisions/0045-discogs-import.md): what one
/// adds to the Discogs collection, the other imports; importing what this Crate added itself adopts
/// its own copy instead of doubling it; importing again adds nothing.
@Suite("Discogs: two machines converge")
struct DiscogsTwoMachinesTests {
    typealias Record = DiscogsImportFixtures.Record

    @Test func addedOnOneCrateIsImportedOnTheOtherAndNeverDoubled() async throws {
        let h = try DiscogsAccountHarness()
        let records = Array(DiscogsImportFixtures.collection(count: 40, seed: 9).filter { $0.mbid != nil && $0.copies == 1 }.prefix(2))
        try #require(records.count == 2)
        MusicBrainzBatchSearchFixture(records: records).serve(on: h.server)
        // Discogs answers the collection from the account's state: the records it holds copies of.
        let base = h.server.baseURL, world = h.world
        h.server.route("/users/\(world.username)/collection/folders/0/releases") { request in
            let held = world.collection.withLock { $0 }
            let owned = records.compactMap { record -> Record? in
                guard let copies = held[record.releaseID], copies > 0 else { return nil }
                var record = record
                record.copies = copies
                return record
            }
            return .json(DiscogsCollectionFixtures.collectionPage(owned, page: Int(request.queryItem("page") ?? "1") ?? 1, base: base, user: world.username),
                         headers: DiscogsFixtures.rateLimitHeaders(remaining: 50))
        }
        let clock = h.clock
        let musicBrainz = MusicBrainzClient(http: ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock),
                                                                      clock: clock, jitter: { 0 }),
                                            baseURL: h.server.url("/ws/2"), contact: "mailto:test@example.org")
        let a = try AppDatabase.inMemory(), b = try AppDatabase.inMemory()

        /// "I Own This" on `record`, then "Add to Discogs Collection", sent.
        func ownAndAdd(_ record: Record, on database: AppDatabase) async throws {
            var album = Album(title: record.title, artist: record.mbArtist)
            album.musicBrainzReleaseID = record.mbid
            album.musicBrainzReleaseGroupID = record.groupID
            let id = try database.addToCrate(album)
            try database.own(albumID: id)
            let link = DiscogsLink(releaseID: record.releaseID, url: URL(string: "https://www.discogs.com/release/\(record.releaseID)")!,
                                   score: 1, title: record.title, year: record.year)
            try database.saveDiscogsState(.linked(link), forAlbum: id, at: clock.now())
            try database.queueDiscogs(.addToCollection, releaseID: record.releaseID, albumID: id)
            _ = await h.sender(database: database).run()
        }
        func importFromDiscogs(into database: AppDatabase) async throws {
            let items = try await h.client().collection(user: world.username)
            _ = try database.stageDiscogsImport(items, source: "api", name: world.username)
            _ = try await DiscogsImporter(database: database, musicBrainz: musicBrainz).run()
        }
        func owned(_ database: AppDatabase) throws -> [String] {
            try database.read { try String.fetchAll($0, sql: "SELECT COALESCE(c.releaseId, a.mbReleaseId) FROM album_copy c JOIN album a ON a.id = c.albumId ORDER BY 1") }
        }
        let first = try #require(records[0].mbid), second = try #require(records[1].mbid)

        // A adds the first record; B, importing, owns it too.
        try await ownAndAdd(records[0], on: a)
        #expect(world.collection.withLock { $0[records[0].releaseID] } == 1)
        try await importFromDiscogs(into: b)
        #expect(try owned(b) == [first])
        // B adds the second; A imports: its own copy of the first stands for the Discogs one.
        try await ownAndAdd(records[1], on: b)
        try await importFromDiscogs(into: a)
        #expect(try owned(a) == [first, second].sorted())
        // Both import again: nothing twice, anywhere.
        try await importFromDiscogs(into: a)
        try await importFromDiscogs(into: b)
        #expect(try owned(a) == [first, second].sorted())
        #expect(try owned(b) == [first, second].sorted())
        #expect(world.collection.withLock { $0 } == [records[0].releaseID: 1, records[1].releaseID: 1])
        #expect(world.writes.withLock { $0.count } == 2, "one POST per record added")
    }
}
