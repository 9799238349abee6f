import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// A bug this pins down: a Cover Art Archive (unpaced) request to the same host as a paced
/// MusicBrainz one waited for MusicBrainz's next 1.1 s slot, putting a second into every scan
/// whose services share a host (a local mirror, the fixture server).
@Suite("RateLimiter sharing a host")
struct RateLimiterSharingTests {
    @Test func unpacedCallersDoNotQueueBehindPacedOnes() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock)
        let start = clock.uptime()
        try await limiter.acquire(host: "127.0.0.1:80", interval: 1.1)
        try await limiter.acquire(host: "127.0.0.1:80", interval: 0)
        #expect(clock.uptime() - start < 0.01)
        try await limiter.acquire(host: "127.0.0.1:80", interval: 1.1)
        #expect(clock.uptime() - start >= 1.1, "paced callers still keep their interval")
    }

    @Test func everyCallerHonoursRetryAfter() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock)
        let start = clock.uptime()
        await limiter.deferHost("example.org", by: 3)
        try await limiter.acquire(host: "example.org", interval: 0)
        #expect(clock.uptime() - start >= 3)
    }
}
