@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// A Discogs user on the loopback fixture server, a library, and one virtual clock for the
/// limiter, the account and the sender (a 30 s `Retry-After` takes no real time).
struct DiscogsAccountHarness {
    static let rumours = 1873013
    static let token = "disc-token"

    let server: FixtureServer
    let world: DiscogsAccountWorld
    let clock = TestClock()
    let limiter: RateLimiter
    let database: AppDatabase

    init(database: AppDatabase? = nil, wantsPerPage: Int = 100) throws {
        server = try FixtureServer()
        world = DiscogsAccountWorld(wantsPerPage: wantsPerPage)
        world.install(on: server)
        limiter = RateLimiter(clock: clock)
        self.database = try database ?? AppDatabase.inMemory()
    }

    func client(token: String = token, baseURL: URL? = nil) -> DiscogsClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: DiscogsAccount.retryPolicy, limiter: limiter, clock: clock, jitter: { 0 })
        return DiscogsClient(http: http, limiter: limiter, baseURL: baseURL ?? server.baseURL, token: token, contact: "tests@crate.dev")
    }

    func account(token: String = token, database: AppDatabase? = nil, baseURL: URL? = nil) -> DiscogsAccount {
        let clock = self.clock
        return DiscogsAccount(client: client(token: token, baseURL: baseURL), token: token, database: database ?? self.database, now: { clock.now() })
    }

    /// A Discogs URL where nothing listens (offline).
    static let offlineURL = URL(string: "http://127.0.0.1:9")!

    func sender(owner: String = "window", database: AppDatabase? = nil, baseURL: URL? = nil) -> DiscogsOutboxSender {
        let clock = self.clock
        let database = database ?? self.database
        return DiscogsOutboxSender(database: database, account: account(database: database, baseURL: baseURL), owner: Self.owner(owner),
                                   now: { clock.now() })
    }

    static func owner(_ token: String) -> BatchLeaseOwner {
        BatchLeaseOwner(host: "here", processID: getpid(), startTime: BatchLeaseOwner().startTime, token: token)
    }

    /// A crate album linked to Discogs release `releaseID`.
    @discardableResult
    func linkedAlbum(releaseID: Int = rumours, title: String = "Rumours") throws -> Int64 {
        let album = try database.saveScan(of: Album(title: title, artist: "Fleetwood Mac", year: "1977"), method: .manual).album
        let id = try #require(album.id)
        let link = DiscogsLink(releaseID: releaseID, url: URL(string: "https://www.discogs.com/release/\(releaseID)")!, score: 0.97, title: title, year: "1977")
        try database.saveDiscogsState(.linked(link), forAlbum: id, at: clock.now())
        return id
    }

    func requests(_ method: String, containing fragment: String = "") -> [RecordedRequest] {
        server.requests.filter { $0.method == method && (fragment.isEmpty || $0.path.contains(fragment)) }
    }

    /// The outbox rows: state, error and next attempt.
    func rows() throws -> [(state: String, error: String?, next: Double, postedAt: Double?)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT state, error, nextAttemptAt, postedAt FROM discogs_outbox ORDER BY id").map {
                ($0["state"], $0["error"], $0["nextAttemptAt"], $0["postedAt"])
            }
        }
    }
}
