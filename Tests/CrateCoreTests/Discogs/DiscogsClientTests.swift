@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Discogs links")
struct DiscogsClientTests {
    let server: FixtureServer
    let clock = TestClock()
    let limiter: RateLimiter

    init() throws {
        server = try FixtureServer()
        limiter = RateLimiter(clock: clock)
    }

    func client(token: String = "disc-token") -> DiscogsClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: DiscogsClient.retryPolicy, limiter: limiter, clock: clock, jitter: { 0 })
        return DiscogsClient(http: http, limiter: limiter, baseURL: server.baseURL, token: token, contact: "tests@crate.dev")
    }

    static let rumours = DiscogsQuery(artist: "Fleetwood Mac", title: "Rumours", year: "1977")

    @Test func theBestReleaseIsPickedWithItsScoreAndNoMarketplaceField() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch, headers: DiscogsFixtures.rateLimitHeaders(remaining: 59))])
        let link = try #require(try await client().bestMatch(for: Self.rumours))
        #expect(link.releaseID == 1873013)
        #expect(link.url.absoluteString == "https://www.discogs.com/release/1873013-Fleetwood-Mac-Rumours")
        #expect(link.score > 0.95)
        #expect(link.label == "View on Discogs (100 % match)")

        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == "Discogs token=disc-token")
        #expect(request.headers["user-agent"]?.hasPrefix("Crate/") == true)
        #expect(request.queryItem("type") == "release" && request.queryItem("artist") == "Fleetwood Mac"
                && request.queryItem("release_title") == "Rumours" && request.queryItem("year") == "1977")

        // What would be stored holds none of the reply's marketplace or community fields.
        let stored = String(decoding: try JSONEncoder().encode(link), as: UTF8.self)
        for field in ["lowest_price", "num_for_sale", "want", "have", "price", "9.99", "1342", "12873", "community", "for_sale"] {
            #expect(!stored.contains(field), "\(field) reached storage")
        }
        let results = try DiscogsSearchResult.decodePage(Data(DiscogsFixtures.rumoursSearch.utf8))
        #expect(!String(describing: results).contains("9.99") && !String(describing: results).contains("1342"))
    }

    @Test func aBarcodeReadOffTheSleeveIsSearchedFirst() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch)])
        var query = Self.rumours
        query.barcode = "0 93624 87772 5"
        query.year = "2004"
        let link = try #require(try await client().bestMatch(for: query))
        #expect(link.releaseID == 421391)
        #expect(server.requests.first?.queryItem("barcode") == "0 93624 87772 5")
        #expect(server.requests.count == 1)
    }

    @Test func nothingCloseEnoughGivesNoLink() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.empty)])
        #expect(try await client().bestMatch(for: Self.rumours) == nil)
        server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch)])
        #expect(try await client().bestMatch(for: DiscogsQuery(artist: "Sunn O)))", title: "Monoliths & Dimensions")) == nil)
    }

    @Test func aRejectedTokenIsTyped() async throws {
        server.route("/database/search", responses: [.json(DiscogsFixtures.unauthorized, status: 401)])
        await #expect(throws: DiscogsError.tokenRejected) { try await client(token: "wrong").bestMatch(for: Self.rumours) }
        #expect(DiscogsError.tokenRejected.message.hasPrefix("Discogs token rejected"))
    }

    @Test func tooManyRequestsIsRetriedAfterItsHeadersThenWaitsForLater() async throws {
        // One 429 with Retry-After: waited out (on the virtual clock) and retried once.
        server.route("/database/search", responses: [
            .json(DiscogsFixtures.tooManyRequests, status: 429, headers: [("Retry-After", "7")] + DiscogsFixtures.rateLimitHeaders(remaining: 0)),
            .json(DiscogsFixtures.rumoursSearch, headers: DiscogsFixtures.rateLimitHeaders(remaining: 58)),
        ])
        let link = try await client().bestMatch(for: Self.rumours)
        #expect(link?.releaseID == 1873013)
        #expect(server.requests.count == 2)
        #expect(clock.sleeps.contains { $0 >= 7 })
    }

    @Test func aPersistent429IsTypedWithItsWait() async throws {
        server.route("/database/search", responses: [
            .json(DiscogsFixtures.tooManyRequests, status: 429, headers: [("Retry-After", "20")] + DiscogsFixtures.rateLimitHeaders(remaining: 0)),
        ])
        let error = await #expect(throws: DiscogsError.self) { try await client().bestMatch(for: Self.rumours) }
        guard case .rateLimited(let seconds) = error else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(seconds == 20)
        // The next request to Discogs waits for the window, in this process and (through the
        // shared limiter) in others.
        #expect(await limiter.pendingDeferral(host: RateLimiter.key(for: server.baseURL)) > 0)
    }

    @Test func malformedAndOddRepliesNeverCrash() async throws {
        server.route("/database/search", responses: [.json("{ not json"), .json(#"{"results":"nope"}"#),
                                                    .json(#"{"results":[{"id":"x"},{"id":1e300,"title":"A - B"},{"id":5,"title":"Fleetwood Mac - Rumours","year":1977,"uri":"javascript:alert(1)"}]}"#),
                                                    .json("{}", status: 502)])
        await #expect(throws: DiscogsError.malformedResponse) { try await client().search([]) }
        await #expect(throws: DiscogsError.malformedResponse) { try await client().search([]) }
        let odd = try await client().search([])
        #expect(odd.map(\.id) == [5] && odd.first?.year == "1977")
        #expect(DiscogsClient.rank(odd, for: Self.rumours).isEmpty)  // A link that is not a Discogs page is never offered.
        await #expect(throws: DiscogsError.self) { try await client().search([]) }
    }
}
