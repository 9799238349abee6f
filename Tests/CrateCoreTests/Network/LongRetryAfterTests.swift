import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// A `Retry-After` longer than a request waits (15 s for MusicBrainz): before, the call slept
/// through up to 120 s of it and then gave up; now it fails at once with the whole wait, and every
/// later request to the host fails fast too, without reaching the server, until the pause is over.
@Suite("Long Retry-After")
struct LongRetryAfterTests {
    static func client(_ server: FixtureServer, clock: TestClock) -> MusicBrainzClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        return MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "test@example.org")
    }

    @Test(arguments: ["600", "Thu, 28 May 2026 20:36:40 GMT"])  // seconds, and an HTTP date 10 minutes after the clock's now
    func aTenMinutePauseFailsFastWithTheWait(retryAfter: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", retryAfter)])])
        let clock = TestClock()
        let client = Self.client(server, clock: clock)

        // Ten minutes asked, two granted (`RetryAfter.maximum`).
        await #expect(throws: MusicBrainzError.mustWait(seconds: 120)) { try await client.searchReleases(lucene: "a") }
        #expect(server.requests.count == 1, "no retry inside the call")
        #expect(clock.sleeps.isEmpty, "nothing slept")
        #expect(MusicBrainzError.mustWait(seconds: 600).errorDescription == "MusicBrainz asked Crate to wait 10 minutes before sending more requests.")

        // The next request fails fast with what is left, without reaching the server.
        clock.advance(by: 60)
        await #expect(throws: MusicBrainzError.mustWait(seconds: 60)) { try await client.searchReleases(lucene: "b") }
        #expect(server.requests.count == 1)
        #expect(await client.pendingWait() == 60)

        // Once the pause is over, requests go again.
        clock.advance(by: 60)
        server.route("/ws/2/release", responses: [.json(#"{"releases":[]}"#)])
        _ = try await client.searchReleases(lucene: "c")
        #expect(server.requests.count == 2)
    }

    @Test func aShortPauseIsWaitedOutAndRetried() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [
            .json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", "10")]),
            .json(#"{"releases":[]}"#),
        ])
        let clock = TestClock()
        _ = try await Self.client(server, clock: clock).searchReleases(lucene: "a")
        #expect(server.requests.count == 2)
        #expect(clock.sleeps.contains(10))
    }
}
