import CrateCore
import CrateTestSupport
import Foundation

/// A scan pipeline wired to a loopback fixture server that answers like MusicBrainz and the
/// Cover Art Archive, with a scripted vision provider and reviewer.
final class PipelineHarness {
    let server: FixtureServer
    let directory: TemporaryDirectory
    let database: AppDatabase
    let coverData: Data

    init() throws {
        server = try FixtureServer()
        directory = try TemporaryDirectory()
        database = try AppDatabase.open(paths: directory.paths)
        coverData = try ImageFixtures.data("covers/cover-00.jpg")
    }

    deinit { server.stop() }

    /// Routes for Rumours: search, lookup, and the CAA 307 chain to a real cover JPEG.
    func serveRumours(searchDelay: TimeInterval = 0, lookupDelay: TimeInterval = 0, artDelay: TimeInterval = 0) {
        let id = MusicBrainzFixtures.rumoursReleaseID
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch, delay: searchDelay)])
        server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup, delay: lookupDelay)])
        server.route("/caa/release/\(id)", responses: [.redirect(to: "/storage/\(id)/index.json")])
        server.route("/storage/\(id)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: id, imageBase: server.url("/caa")))])
        server.route("/caa/img/\(id)/30688716524-500.jpg", responses: [.redirect(to: "/storage/\(id)/front-500.jpg")])
        var art = FixtureResponse.data(coverData)
        art.delay = artDelay
        server.route("/storage/\(id)/front-500.jpg", responses: [art])
    }

    /// `discogs`: a Discogs token, with Discogs answered by this harness's server.
    func pipeline(identifier: CoverIdentifying?, reviewer: AlbumReviewing? = nil, clock: TestClock = TestClock(),
                  discogs: String? = nil) -> ScanPipeline {
        let limiter = RateLimiter(clock: clock)
        let http = ResilientHTTPClient(base: CurlHTTPClient(), limiter: limiter, clock: clock, jitter: { 0 })
        let discogsClient = discogs.map { token in
            DiscogsClient(http: ResilientHTTPClient(base: PatientHTTPClient.discogs, policy: DiscogsClient.retryPolicy, limiter: limiter,
                                                    clock: clock, jitter: { 0 }),
                          limiter: limiter, baseURL: server.baseURL, token: token, contact: "tests@crate.dev")
        }
        let services = ScanPipeline.Services(
            identifier: identifier,
            musicBrainz: MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "tests@crate.dev"),
            coverArt: CoverArtClient(http: http, baseURL: server.url("/caa")),
            reviewer: reviewer, discogs: discogsClient)
        return ScanPipeline(database: database, paths: directory.paths, services: services)
    }
}

/// Answers every photo with the same album (or nothing), after an optional delay.
struct ScriptedIdentifier: CoverIdentifying {
    var answer: VisionAnswer?
    var delay: TimeInterval = 0
    var error: Error?

    func identify(photoJPEG: Data) async throws -> VisionAnswer? {
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
        if let error { throw error }
        return answer
    }

    static let rumours = ScriptedIdentifier(answer: VisionAnswer(artist: "Fleetwood Mac", album: "Rumours", year: "1977", confidence: 0.9, usedSearch: false))
}

struct WrongKey: KeyProblem {
    var keyProblemMessage: String { "Your Anthropic API key was rejected. Check it in Preferences." }
}

/// Collects scan events from any thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ScanEvent] = []
    func append(_ event: ScanEvent) { lock.withLock { items.append(event) } }
    var events: [ScanEvent] { lock.withLock { items } }
}

/// Gives every request a long timeout: a Discogs answer a test holds back on purpose (until the
/// scan has returned) must not be given up on because a busy machine made the hold long.
struct PatientHTTPClient: HTTPClient {
    /// Over libcurl, whose low-speed limit (nothing received for 10 s) is lifted too.
    static let discogs = PatientHTTPClient(base: CurlHTTPClient(configuration: .init(lowSpeedTime: 600)))

    let base: any HTTPClient

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        request.timeout = max(request.timeout, 600)
        return try await base.send(request)
    }

    func pendingDeferral(for url: URL) async -> TimeInterval {
        await base.pendingDeferral(for: url)
    }
}
