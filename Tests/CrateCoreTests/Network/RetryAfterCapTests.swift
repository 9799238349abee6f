import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Retry-After cap")
struct RetryAfterCapTests {
    /// Bug: `Retry-After` was trusted as sent. 600 paused MusicBrainz for 10 minutes, and 86 400,
    /// 999 999 999 999 or a date in 2100 blocked every Crate process (through the shared pacing
    /// file) for a day. One answer now pauses a service for 120 s at most, in this process and in
    /// every other; the request fails with the 120 s, and the longer ask is logged.
    @Test("A huge Retry-After pauses the service for 120 s at most, everywhere", arguments: [
        "600", "86400", "999999999999", "Fri, 01 Jan 2100 00:00:00 GMT",
    ])
    func aHugeRetryAfterIsCapped(retryAfter: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", retryAfter)])])
        let directory = try TemporaryDirectory()
        let store = SharedPacingStore(directory: directory.url)
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock, store: store)
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: limiter, clock: clock, jitter: { 0 })
        let client = MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "test@example.org")

        await #expect(throws: MusicBrainzError.mustWait(seconds: RetryAfter.maximum)) { try await client.searchReleases(lucene: "a") }
        #expect(RetryAfter.maximum == 120)
        #expect(clock.sleeps.isEmpty)

        // Another process (a limiter of its own over the same pacing files) sees 120 s, not a day.
        let other = RateLimiter(clock: clock, store: store)
        let host = RateLimiter.key(for: server.baseURL)
        #expect(await other.pendingDeferral(host: host) <= RetryAfter.maximum)

        // Two minutes later MusicBrainz is asked again.
        clock.advance(by: RetryAfter.maximum)
        server.route("/ws/2/release", responses: [.json(#"{"releases":[]}"#)])
        _ = try await client.searchReleases(lucene: "b")
        #expect(server.requests.count == 2)
    }

    @Test("A pace file holding a day-long pause (an older Crate wrote it) is honoured for 120 s at most")
    func aStoredDayLongPauseIsCapped() throws {
        let directory = try TemporaryDirectory()
        let now = Date().timeIntervalSince1970
        let old = SharedPacingStore(directory: directory.url, deferralHorizon: RetryAfter.ceiling)
        try old.deferKey("musicbrainz.org", until: now + 86_400, now: now)
        let store = SharedPacingStore(directory: directory.url)
        #expect(try store.deferredUntil(key: "musicbrainz.org", now: now) <= now + RetryAfter.maximum)
        guard case .slot(let start) = try store.reserve(key: "musicbrainz.org", interval: 1.1, now: now, maxDeferral: .infinity) else {
            Issue.record("expected a slot")
            return
        }
        #expect(start <= now + RetryAfter.maximum)
    }

    @Test("The limiter never defers a host past the cap, whoever asks")
    func deferHostIsCapped() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock)
        await limiter.deferHost("api.example.org", by: 999_999_999_999)
        #expect(await limiter.pendingDeferral(host: "api.example.org") == RetryAfter.maximum)
        await limiter.deferHost("other.example.org", by: .infinity)
        #expect(await limiter.pendingDeferral(host: "other.example.org") == RetryAfter.maximum)
        #expect(await limiter.pendingDeferral(host: "third.example.org") == 0, "one answer never pauses another service")
    }
}
