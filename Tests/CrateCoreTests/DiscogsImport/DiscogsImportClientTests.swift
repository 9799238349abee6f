@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Discogs collection and wantlist pages")
struct DiscogsImportClientTests {
    let server: FixtureServer
    let clock = TestClock()
    let limiter: RateLimiter

    init() throws {
        server = try FixtureServer()
        limiter = RateLimiter(clock: clock)
    }

    func client() -> DiscogsClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: DiscogsClient.retryPolicy, limiter: limiter, clock: clock, jitter: { 0 })
        return DiscogsClient(http: http, limiter: limiter, baseURL: server.baseURL, token: "disc-token", contact: "tests@crate.dev")
    }

    @Test func everyPageIsReadByItsNextLinkAndReducedToMusicAndNotes() async throws {
        let records = DiscogsImportFixtures.collection(count: 230, seed: 5)
        let base = server.baseURL
        server.route("/users/digger/collection/folders/0/releases") { request in
            .json(DiscogsCollectionFixtures.collectionPage(records, page: Int(request.queryItem("page") ?? "1") ?? 1, base: base),
                  headers: DiscogsFixtures.rateLimitHeaders(remaining: 50))
        }
        server.route("/users/digger/wants") { request in
            .json(DiscogsCollectionFixtures.wantsPage(Array(records.prefix(30)), page: Int(request.queryItem("page") ?? "1") ?? 1, base: base))
        }
        let collection = try await client().collection(user: "digger")
        let wants = try await client().wantlist(user: "digger")
        #expect(collection.count == records.reduce(0) { $0 + $1.copies })
        #expect(wants.count == 30 && wants.allSatisfy { $0.list == .wantlist })
        #expect(server.requests(path: "/users/digger/collection/folders/0/releases").map { $0.queryItem("page") } == ["1", "2", "3"])
        #expect(server.requests.allSatisfy { $0.headers["authorization"] == "Discogs token=disc-token" })
        let twice = try #require(records.first { $0.copies == 2 })
        #expect(collection.filter { $0.releaseID == twice.releaseID }.map(\.copyIndex) == [1, 2])
        let record = records[0]
        let item = try #require(collection.first { $0.releaseID == record.releaseID })
        #expect(item.artist == record.artist && item.title == record.title && item.label == record.label && item.year == record.year)
        #expect(item.catalogNumber == (record.catalogNumber == "none" ? nil : record.catalogNumber))
        #expect(item.note?.contains("Rating") == (record.releaseID % 6 > 0))
        #expect(collection.contains { $0.format == "2×Vinyl, LP, Album, RE" })
        // Nothing of the marketplace or community reaches an item.
        let dump = String(describing: collection + wants)
        #expect(!dump.contains("19.99") && !dump.contains("5678") && !dump.contains("1234,"))
    }

    @Test func aNextLinkToAnotherHostIsNotFollowed() async throws {
        server.route("/users/digger/wants") { request in
            let page = request.queryItem("page") ?? "1"
            let body = #"{"pagination":{"page":\#(page),"pages":2,"per_page":100,"items":2,"urls":{"next":"https://evil.example/steal?page=2"}},"wants":[{"id":\#(page)0,"basic_information":{"title":"T","artists":[{"name":"A"}]}}]}"#
            return .json(body)
        }
        let wants = try await client().wantlist(user: "digger")
        #expect(wants.map(\.releaseID) == [10, 20])
    }

    @Test func refusalsAndLimitsAreTypedErrors() async throws {
        server.route("/users/a/wants", responses: [.json(DiscogsFixtures.unauthorized, status: 401)])
        server.route("/users/b/wants", responses: [.json(#"{"message":"You don't have permission to access this resource."}"#, status: 403)])
        server.route("/users/c/wants", responses: [.json(#"{"message":"User does not exist or may have been deleted."}"#, status: 404)])
        server.route("/users/d/wants", responses: [.json(DiscogsFixtures.tooManyRequests, status: 429,
                                                         headers: DiscogsFixtures.rateLimitHeaders(remaining: 0) + [("Retry-After", "30")])])
        server.route("/users/e/wants", responses: [.json("<html>502</html>", status: 502)])
        server.route("/users/f/wants", responses: [.json("{not json")])
        await #expect(throws: DiscogsError.tokenRejected) { _ = try await client().wantlist(user: "a") }
        await #expect(throws: DiscogsError.tokenRejected) { _ = try await client().wantlist(user: "b") }
        await #expect(throws: DiscogsError.server(status: 404)) { _ = try await client().wantlist(user: "c") }
        do {
            _ = try await client().wantlist(user: "d")
            Issue.record("a 429 went through")
        } catch DiscogsError.rateLimited(let seconds) {
            #expect(seconds >= 30)
        }
        await #expect(throws: DiscogsError.server(status: 502)) { _ = try await client().wantlist(user: "e") }
        await #expect(throws: DiscogsError.malformedResponse) { _ = try await client().wantlist(user: "f") }
    }
}
