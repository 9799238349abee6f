import CrateCore
import CrateTestSupport
import Foundation

/// A wall builder over the live sources, pointed at a fixture server.
struct WallTestWorld {
    let server: FixtureServer
    let database: AppDatabase
    let clock = TestClock()
    /// Times the signals' limits: no limit passes unless a test expires it, so a busy machine
    /// cannot cut off a signal that was only slow.
    let deadlines = ManualClock()

    init(latency: TimeInterval = 0, database: AppDatabase? = nil) throws {
        server = try FixtureServer()
        self.database = try database ?? AppDatabase.inMemory()
        ListenBrainzWorld.install(on: server, latency: latency)
    }

    func listenBrainz(user: String? = "rob", token: String? = "secret-token") -> ListenBrainzClient {
        let limiter = RateLimiter(clock: clock)
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .listenBrainz, limiter: limiter, clock: clock, jitter: { 0 })
        return ListenBrainzClient(http: http, baseURL: server.baseURL, user: user, token: token, limiter: limiter)
    }

    func musicBrainz(limiter: RateLimiter? = nil) -> MusicBrainzClient {
        let limiter = limiter ?? RateLimiter(clock: clock)
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: limiter, clock: clock, jitter: { 0 })
        return MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "mailto:test@example.org")
    }

    func sources(user: String? = "rob", musicBrainz: MusicBrainzClient? = nil) -> [any WallSource] {
        let lb = listenBrainz(user: user)
        let art = server.url("/caa")
        return [
            ListeningHistorySource(listenBrainz: lb, database: database, coverArt: art),
            RecommendationsSource(listenBrainz: lb, database: database, coverArt: art),
            PopularChartsSource(listenBrainz: lb, coverArt: art),
            NewReleasesSource(listenBrainz: lb, coverArt: art),
            WildCardSource(musicBrainz: musicBrainz ?? self.musicBrainz(), genres: ["post-rock", "r&b"], coverArt: art, random: { _ in 0 }),
        ]
    }

    /// - Parameter answered: for each signal, counts the times its source gave all it will.
    func builder(user: String? = "rob", timeout: TimeInterval = 5, answered: [WallSignal: EventCounter] = [:]) throws -> WallBuilder {
        let sources = sources(user: user).map { source -> any WallSource in
            answered[source.signal].map { ReportingSource(base: source, done: $0) } ?? source
        }
        return WallBuilder(sources: sources, table: try CrateDialTable.standard(), timeout: timeout, clock: deadlines)
    }

    /// Routes a signal's endpoints use on the fixture server.
    static func routes(of signal: WallSignal) -> [String] {
        switch signal {
        case .listeningHistory: return ["/1/stats/user/*", "/1/user/*"]
        case .recommendations: return ["/1/cf/recommendation/user/*"]
        case .popularCharts: return ["/1/stats/sitewide/release-groups"]
        case .newReleases: return ["/1/explore/fresh-releases/"]
        case .wildCard: return ["/ws/2/release-group"]
        }
    }

    /// The namespaces of the albums a signal's fixtures name.
    static func namespaces(of signal: WallSignal) -> Set<Int> {
        switch signal {
        case .listeningHistory: return [WallNamespace.history, WallNamespace.recent]
        case .recommendations: return [WallNamespace.recommendations]
        case .popularCharts: return [WallNamespace.charts]
        case .newReleases: return [WallNamespace.fresh]
        case .wildCard: return [WallNamespace.wildCard]
        }
    }

    static func namespace(of item: WallItem) -> Int {
        Int(item.releaseGroupID.rawValue.prefix(8), radix: 16) ?? -1
    }
}

/// A source that reports when it has given everything it will give: its first answer and, when
/// it needs one, its second round trip (or the error that ended either).
struct ReportingSource: WallSource {
    let base: any WallSource
    let done: EventCounter

    var signal: WallSignal { base.signal }

    func albums(_ request: WallSourceRequest) async throws -> [WallItem] {
        defer { done.signal() }
        return try await base.albums(request)
    }

    func answer(_ request: WallSourceRequest) async throws -> WallSourceAnswer {
        var answer: WallSourceAnswer
        do {
            answer = try await base.answer(request)
        } catch {
            done.signal()
            throw error
        }
        guard let rest = answer.rest else {
            done.signal()
            return answer
        }
        let done = self.done
        answer.rest = {
            defer { done.signal() }
            return try await rest()
        }
        return answer
    }
}
