import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("ListenBrainzClient")
struct ListenBrainzClientTests {
    static func client(_ server: FixtureServer, user: String? = "rob", token: String? = "secret-token", clock: TestClock = TestClock()) -> ListenBrainzClient {
        let limiter = RateLimiter(clock: clock)
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .listenBrainz, limiter: limiter, clock: clock, jitter: { 0 })
        return ListenBrainzClient(http: http, baseURL: server.baseURL, user: user, token: token, limiter: limiter)
    }

    @Test func userTopReleaseGroupsAreReadWithTheTokenAndBrokenItemsSkipped() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)

        let groups = try await Self.client(server).topReleaseGroups(count: 10)

        #expect(groups.count == 10)  // the broken MBID is skipped, the rest kept
        #expect(groups[0].releaseGroupID.rawValue == ListenBrainzFixtures.mbid(WallNamespace.history, 0))
        #expect(groups[0].title == "Album 16-0" && groups[0].artist == "Artist 16-0")
        #expect(groups[0].caaID == 30_000_000_000 && groups[2].caaID == nil)
        let request = try #require(server.requests.first)
        #expect(request.path == "/1/stats/user/rob/release-groups")
        #expect(request.headers["authorization"] == "Token secret-token")
        #expect(request.queryItem("count") == "10")
    }

    @Test func aUserNameCannotLeaveItsPathSegment() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        _ = try? await Self.client(server, user: "../../admin?x=1").topReleaseGroups()
        #expect(server.requests.first?.path == "/1/stats/user/..%2F..%2Fadmin%3Fx%3D1/release-groups")
    }

    @Test func statisticsNotComputedYetIs204() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/stats/user/rob/release-groups", responses: [FixtureResponse(status: 204, headers: ListenBrainzFixtures.rateLimitHeaders())])
        await #expect(throws: ListenBrainzError.statsNotReady) { try await Self.client(server).topReleaseGroups() }
        #expect(UserMessage.text(for: ListenBrainzError.statsNotReady).contains("not computed"))
    }

    @Test func noRecommendationsIs204AndEmpty() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/cf/recommendation/user/rob/recording", responses: [FixtureResponse(status: 204)])
        #expect(try await Self.client(server).recommendedRecordings().isEmpty)
    }

    @Test func aBadTokenIs401WithAClearMessage() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/stats/user/rob/release-groups", responses: [.json(ListenBrainzFixtures.badToken, status: 401)])
        await #expect(throws: ListenBrainzError.invalidToken) { try await Self.client(server).topReleaseGroups() }
        let text = UserMessage.text(for: ListenBrainzError.invalidToken)
        #expect(text.contains("token") && !text.contains("Authorization"))
    }

    @Test func anUnknownUserIs404() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/user/nobody/listens", responses: [.json(ListenBrainzFixtures.notFoundUser, status: 404)])
        await #expect(throws: ListenBrainzError.unknownUser("nobody")) { try await Self.client(server, user: "nobody").recentReleaseGroups() }
    }

    @Test func a429DefersEveryLaterRequestUntilTheReset() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        server.route("/1/stats/sitewide/release-groups", responses: [
            .text(ListenBrainzFixtures.tooManyRequests, status: 429, headers: ListenBrainzFixtures.rateLimitHeaders(remaining: 0, resetIn: 7)),
            .json(ListenBrainzFixtures.releaseGroupStats(namespace: 1, count: 3), headers: ListenBrainzFixtures.rateLimitHeaders()),
        ])
        let clock = TestClock()
        let client = Self.client(server, clock: clock)

        await #expect(throws: ListenBrainzError.rateLimited(seconds: 7)) { try await client.sitewideTopReleaseGroups() }
        #expect(server.requests.count == 1)  // a 429 is not retried blindly
        let groups = try await client.sitewideTopReleaseGroups()
        #expect(groups.count == 3)
        // The second request waited out the reset (virtual time).
        #expect(clock.sleeps.contains { abs($0 - 7) < 0.01 })
    }

    @Test func anExhaustedWindowMakesTheNextRequestWaitForTheReset() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/stats/sitewide/release-groups", responses: [
            .json(ListenBrainzFixtures.releaseGroupStats(namespace: 1, count: 2), headers: ListenBrainzFixtures.rateLimitHeaders(remaining: 0, resetIn: 4)),
            .json(ListenBrainzFixtures.releaseGroupStats(namespace: 1, count: 2), headers: ListenBrainzFixtures.rateLimitHeaders()),
        ])
        let clock = TestClock()
        let client = Self.client(server, clock: clock)
        _ = try await client.sitewideTopReleaseGroups()
        #expect(clock.sleeps.isEmpty)
        _ = try await client.sitewideTopReleaseGroups()
        #expect(clock.sleeps.contains { abs($0 - 4) < 0.01 })
    }

    @Test func aLongResetFailsFastInsteadOfWaiting() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/stats/sitewide/release-groups", responses: [
            .text(ListenBrainzFixtures.tooManyRequests, status: 429, headers: ListenBrainzFixtures.rateLimitHeaders(remaining: 0, resetIn: 300)),
        ])
        let client = Self.client(server)
        await #expect(throws: ListenBrainzError.rateLimited(seconds: 300)) { try await client.sitewideTopReleaseGroups() }
        await #expect(throws: ListenBrainzError.self) { try await client.freshReleases() }
        #expect(server.requests.count == 1)  // the second never left
    }

    @Test func a503IsRetriedOnceThenReported() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/1/explore/fresh-releases/", responses: [.json(ListenBrainzFixtures.serviceUnavailable, status: 503)])
        await #expect(throws: ListenBrainzError.server(status: 503)) { try await Self.client(server).freshReleases() }
        #expect(server.requests.count == 2)
    }

    @Test func truncatedJSONIsAMalformedResponse() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let full = ListenBrainzFixtures.freshReleases(namespace: 1, count: 5)
        server.route("/1/explore/fresh-releases/", responses: [.json(String(full.prefix(full.count / 2)))])
        await #expect(throws: ListenBrainzError.malformedResponse("fresh releases")) { try await Self.client(server).freshReleases() }
    }

    @Test func recordingsAreMappedToAlbumsInBatches() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        let client = Self.client(server)
        let recordings = try await client.recommendedRecordings(count: 120)
        #expect(recordings.count == 120)

        let albums = try await client.releases(ofRecordings: recordings + recordings.prefix(10))

        #expect(albums.count == 120)
        #expect(Set(albums.values.map(\.releaseGroupID)).count == 40)  // three recordings per album
        let lookups = server.requests(path: "/1/metadata/recording/")
        #expect(lookups.count == 3)  // 120 unique recordings, 50 a request
        #expect(lookups.allSatisfy { ($0.queryItem("recording_mbids") ?? "").split(separator: ",").count <= ListenBrainzClient.metadataBatchSize })
    }

    @Test func feedbackIsPostedWithTheTokenAndNeedsOne() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        let recording = try MBID(ListenBrainzFixtures.mbid(0xe0, 1))

        try await Self.client(server).sendFeedback(recording: recording, score: -1)

        let post = try #require(server.requests(path: "/1/feedback/recording-feedback").first)
        #expect(post.method == "POST")
        #expect(post.headers["authorization"] == "Token secret-token")
        let body = try JSONSerialization.jsonObject(with: post.body) as? [String: Any]
        #expect(body?["recording_mbid"] as? String == recording.rawValue && body?["score"] as? Int == -1)
        await #expect(throws: ListenBrainzError.noToken) { try await Self.client(server, token: nil).sendFeedback(recording: recording, score: 1) }
    }

    @Test func withoutAUserThePersonalCallsSaySo() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        await #expect(throws: ListenBrainzError.noAccount) { try await Self.client(server, user: nil).topReleaseGroups() }
        #expect(server.requests.isEmpty)
    }
}
