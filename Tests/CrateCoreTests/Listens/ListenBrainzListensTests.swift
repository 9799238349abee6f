import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("ListenBrainz submit-listens")
struct ListenBrainzListensTests {
    static let track = ListenTrack(artist: "Can", title: "Vitamin C", release: "Ege Bamyasi", durationMs: 212_000, trackNumber: "B2", discNumber: 1,
                                   recordingID: ListenBrainzFixtures.mbid(1, 1), releaseID: ListenBrainzFixtures.mbid(2, 1),
                                   releaseGroupID: ListenBrainzFixtures.mbid(3, 1))

    static func client(_ server: FixtureServer, limiter: RateLimiter? = RateLimiter(clock: SystemNetworkClock()), token: String? = "tok") -> ListenBrainzListens {
        ListenBrainzListens(http: CurlHTTPClient(), baseURL: server.baseURL, token: token, limiter: limiter, timeout: 5)
    }

    static func listens(_ count: Int) -> [QueuedListen] {
        (0..<count).map { QueuedListen(id: Int64($0), service: .listenBrainz, track: track, listenedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 300)) }
    }

    @Test func playingNowSingleAndImportInTheirShapes() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/submit-listens", method: "POST") { _ in .json(ListenFixtures.listenBrainzOK, headers: ListenBrainzFixtures.rateLimitHeaders()) }
        let client = Self.client(server)
        try await client.nowPlaying(Self.track)
        try await client.submit(Self.listens(1))
        try await client.submit(Self.listens(3))
        let bodies = server.requests(path: "/1/submit-listens")
        #expect(bodies.allSatisfy { $0.headers["authorization"] == "Token tok" })
        let now = ListenFixtures.listens(bodies[0].body)
        #expect(now.type == "playing_now" && now.listens.count == 1 && now.listens[0].at == nil)
        let single = ListenFixtures.listens(bodies[1].body)
        #expect(single.type == "single" && single.listens[0].at == 1_700_000_000 && single.listens[0].track == "Vitamin C")
        let info = single.listens[0].info
        #expect(info["recording_mbid"] as? String == ListenBrainzFixtures.mbid(1, 1))
        #expect(info["release_mbid"] as? String == ListenBrainzFixtures.mbid(2, 1))
        #expect(info["release_group_mbid"] as? String == ListenBrainzFixtures.mbid(3, 1))
        #expect(info["tracknumber"] as? String == "B2" && info["discnumber"] as? Int == 1 && info["duration_ms"] as? Int == 212_000)
        let batch = ListenFixtures.listens(bodies[2].body)
        #expect(batch.type == "import" && batch.listens.count == 3)
    }

    @Test func aWrongTokenStopsAndSaysSo() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/submit-listens") { _ in .json(ListenFixtures.listenBrainzInvalidToken, status: 401) }
        await #expect(throws: ListenSubmitError.notAuthorized(.listenBrainz)) { try await Self.client(server).submit(Self.listens(1)) }
        #expect(ListenSubmitError.notAuthorized(.listenBrainz).localizedDescription.contains("token"))
    }

    @Test func a429PausesEveryCallerForItsRetryAfterCapped() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/submit-listens") { _ in
            .json(ListenFixtures.listenBrainzRateLimited, status: 429, headers: [("Retry-After", "86400"), ("X-RateLimit-Remaining", "0")])
        }
        let limiter = RateLimiter(clock: SystemNetworkClock())
        await #expect(throws: ListenSubmitError.rateLimited(.listenBrainz, seconds: RetryAfter.maximum)) {
            try await Self.client(server, limiter: limiter).submit(Self.listens(2))
        }
        // A second client on the same limiter (another window, the CLI) does not even ask.
        await #expect(throws: ListenSubmitError.self) { try await Self.client(server, limiter: limiter).submit(Self.listens(1)) }
        #expect(server.requests(path: "/1/submit-listens").count == 1)
    }

    @Test func theResetHeaderCountsWhenThereIsNoRetryAfter() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/submit-listens") { _ in
            .json(ListenFixtures.listenBrainzRateLimited, status: 429, headers: ListenBrainzFixtures.rateLimitHeaders(remaining: 0, resetIn: 7))
        }
        await #expect(throws: ListenSubmitError.rateLimited(.listenBrainz, seconds: 7)) { try await Self.client(server).submit(Self.listens(1)) }
    }

    @Test func serverErrorsAreRetriedLaterAndBadListensRefused() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/submit-listens", responses: [.json(ListenFixtures.listenBrainzUnavailable, status: 503), .json(ListenFixtures.listenBrainzBadRequest, status: 400)])
        let client = Self.client(server)
        await #expect(throws: ListenSubmitError.unavailable(.listenBrainz)) { try await client.submit(Self.listens(1)) }
        do {
            try await client.submit(Self.listens(1))
            Issue.record("a 400 was accepted")
        } catch let error as ListenSubmitError {
            #expect(!error.isRetryable)
        }
        await #expect(throws: ListenSubmitError.notConfigured(.listenBrainz)) { try await Self.client(server, token: nil).submit(Self.listens(1)) }
    }
}
