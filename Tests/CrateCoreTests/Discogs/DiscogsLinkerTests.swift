@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// Linking identified albums to Discogs, stored in the library: the link and its score only,
/// and every failure a quiet "try again later", never a scan failure.
@Suite("Discogs linker")
struct DiscogsLinkerTests {
    let server: FixtureServer
    let clock = TestClock()
    let limiter: RateLimiter
    let database: AppDatabase
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    init() throws {
        server = try FixtureServer()
        limiter = RateLimiter(clock: clock)
        database = try AppDatabase.inMemory()
    }

    func linker(token: String = "disc-token") -> DiscogsLinker {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: DiscogsClient.retryPolicy, limiter: limiter, clock: clock, jitter: { 0 })
        let client = DiscogsClient(http: http, limiter: limiter, baseURL: server.baseURL, token: token, contact: "tests@crate.dev")
        return DiscogsLinker(client: client, database: database, clock: { Self.now })
    }

    func rumours() throws -> Album {
        try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977"), method: .manual).album
    }

    @Test func theMigrationIsAppendedAfterTheUsageTiers() throws {
        let known = AppDatabase.knownMigrations
        let usage = try #require(known.firstIndex(of: "v15-usage-scans-by-tier"))
        let discogs = try #require(known.firstIndex(of: "v18-discogs-links"))
        #expect(usage < discogs)
        #expect(try database.reader.read { try $0.tableExists("discogs_link") })
    }

    @Test func aMatchIsStoredWithItsScoreAndNoMarketplaceField() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch, headers: DiscogsFixtures.rateLimitHeaders(remaining: 59))])
        let album = try rumours()
        let albumID = try #require(album.id)
        #expect(try database.albumsAwaitingDiscogs(now: Self.now).map(\.id) == [albumID])
        try await linker().link(album)

        guard case .linked(let link) = try database.discogsState(forAlbum: albumID) else {
            Issue.record("no link stored")
            return
        }
        #expect(link.releaseID == 1873013)
        #expect(link.url.absoluteString == "https://www.discogs.com/release/1873013-Fleetwood-Mac-Rumours")
        #expect(link.score > 0.95 && link.year == "1977")
        #expect(try database.albumsAwaitingDiscogs(now: Self.now).isEmpty)

        // The stored row, every column and value: the reply's lowest_price (9.99, 3.5) and
        // num_for_sale (1342, 88), want/have, never reach the library.
        let fetched = try database.reader.read { try Row.fetchOne($0, sql: "SELECT * FROM discogs_link") }
        let row = try #require(fetched)
        let columns = Set(row.columnNames)
        #expect(columns == ["albumId", "status", "releaseId", "url", "score", "title", "year", "checkedAt", "retryAfter"])
        let values = row.databaseValues.map(\.description).joined(separator: " ")
        for forbidden in ["9.99", "3.5", "1342", "88", "12873", "41232", "price", "sale"] {
            #expect(!values.contains(forbidden), "\(forbidden) reached storage: \(values)")
        }
        let dump = try await database.reader.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").joined(separator: "\n")
        }
        #expect(!dump.contains("price") && !dump.contains("for_sale") && !dump.contains("forSale"))
    }

    @Test func aRejectedTokenIsAQuietRetryNotAFailure() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.unauthorized, status: 401)])
        let album = try rumours()
        let albumID = try #require(album.id)
        let state = try await linker(token: "wrong").link(album)
        #expect(state == .retry(after: Self.now.addingTimeInterval(DiscogsLinker.rejectedTokenDelay)))
        #expect(try database.discogsState(forAlbum: albumID) == state)
        // Not due yet; due once the wait is over.
        #expect(try database.albumsAwaitingDiscogs(now: Self.now).isEmpty)
        #expect(try database.albumsAwaitingDiscogs(now: Self.now.addingTimeInterval(DiscogsLinker.rejectedTokenDelay + 1)).map(\.id) == [albumID])
    }

    @Test func rateLimitingWaitsAsLongAsDiscogsSays() async throws {
        server.route("/database/search", responses: [
            .json(DiscogsFixtures.tooManyRequests, status: 429, headers: [("Retry-After", "600")] + DiscogsFixtures.rateLimitHeaders(remaining: 0)),
        ])
        let album = try rumours()
        let state = try await linker().link(album)
        guard case .retry(let after) = state else {
            Issue.record("expected a retry, got \(String(describing: state))")
            return
        }
        #expect(after >= Self.now.addingTimeInterval(600))
    }

    @Test func offlineIsAQuietRetryAndAnEarlierLinkIsKept() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch)])
        let album = try rumours()
        let albumID = try #require(album.id)
        try await linker().link(album)
        let stored = try database.discogsState(forAlbum: albumID)

        // Nothing listens there any more: the transport fails.
        let closed = try FixtureServer()
        let offlineURL = closed.baseURL
        closed.stop()
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: DiscogsClient.retryPolicy, limiter: limiter, clock: clock, jitter: { 0 })
        let offline = DiscogsLinker(client: DiscogsClient(http: http, limiter: limiter, baseURL: offlineURL, token: "t", contact: "c"),
                                    database: database, clock: { Self.now })
        let state = try await offline.link(album)
        #expect(state == .retry(after: Self.now.addingTimeInterval(DiscogsLinker.retryDelay)))
        #expect(try database.discogsState(forAlbum: albumID) == stored)  // The link found before stays.

        // A fresh album offline: a retry is recorded and linkPending stops at the first failure.
        let other = try database.saveScan(of: Album(title: "Tusk", artist: "Fleetwood Mac"), method: .manual).album
        let third = try database.saveScan(of: Album(title: "Mirage", artist: "Fleetwood Mac"), method: .manual).album
        #expect(try await offline.linkPending() == 0)
        #expect(try database.discogsState(forAlbum: try #require(other.id)) != nil)
        #expect(try database.discogsState(forAlbum: try #require(third.id)) == nil)
    }

    @Test func noCloseMatchIsRememberedAsNoMatch() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.empty), .json(DiscogsFixtures.empty)])
        let album = try rumours()
        #expect(try await linker().link(album) == .noMatch)
        #expect(try database.albumsAwaitingDiscogs(now: Self.now).isEmpty)
    }
}
