@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// The token's user and each release's status, against Discogs's real shapes: asked once,
/// cached, read again only after the refresh window (docs/decisions/0044-discogs-account-and-outbox.md).
@Suite("Discogs account status")
struct DiscogsAccountTests {
    static let rumours = DiscogsAccountHarness.rumours

    @Test func theMigrationsRunInTheirNumbersOrder() throws {
        let known = AppDatabase.knownMigrations
        let order = try ["v22-listens", "v23-discogs-outbox", "v24-discogs-import", "v25-musicbrainz-collection", "v26-replaygain", "v27-listen-send-marks",
                     "v28-music-file-r128-gain"].map {
            try #require(known.firstIndex(of: $0))
        }
        #expect(order == order.sorted())
    }

    @Test func theUserIsAskedOncePerTokenAndAnotherTokenForgetsIt() async throws {
        let h = try DiscogsAccountHarness()
        let account = h.account()
        #expect(try await account.username() == "rob_digs")
        #expect(try await account.username() == "rob_digs")
        #expect(h.requests("GET", containing: "/oauth/identity").count == 1)
        let request = try #require(h.server.requests.first)
        #expect(request.headers["authorization"] == "Discogs token=disc-token")
        // Kept under the token's hash, never the token.
        let stored = try h.database.read { try Row.fetchAll($0, sql: "SELECT * FROM discogs_identity") }
        #expect(stored.count == 1 && !String(describing: stored).contains("disc-token"))

        // A new token: its owner is asked, and the old token's owner is forgotten.
        let other = h.account(token: "new-token")
        #expect(try await other.username() == "rob_digs")
        #expect(h.requests("GET", containing: "/oauth/identity").count == 2)
        #expect(try h.database.discogsUsername(tokenKey: DiscogsAccount.tokenKey("disc-token")) == nil)
        #expect(try h.database.discogsUsername(tokenKey: DiscogsAccount.tokenKey("new-token")) == "rob_digs")
    }

    @Test(arguments: [DiscogsAccountWorld.Failure.unauthorized, .forbidden])
    func aRefusedTokenIsSaidPlainlyAndNothingIsCached(_ failure: DiscogsAccountWorld.Failure) async throws {
        let h = try DiscogsAccountHarness()
        h.world.failure.withLock { $0 = failure }
        let error = await #expect(throws: DiscogsAccountError.self) { try await h.account().status(releaseID: Self.rumours) }
        #expect(error == .tokenRejected)
        #expect(error?.message.contains("token") == true && error?.message.contains("Preferences") == true)
        #expect(try h.database.discogsUsername(tokenKey: DiscogsAccount.tokenKey(DiscogsAccountHarness.token)) == nil)
    }

    @Test func copiesAreCountedAndEveryWantlistPageIsRead() async throws {
        let h = try DiscogsAccountHarness(wantsPerPage: 100)
        h.world.collection.withLock { $0[Self.rumours] = 2 }
        // 250 wants over three pages; Rumours is on the last one.
        h.world.wants.withLock { $0 = Set((1...249).map { $0 * 10 }).union([Self.rumours]) }
        let status = try await h.account().status(releaseID: Self.rumours)
        #expect(status.copies == 2 && status.inWantlist == true)
        #expect(status.line == "In your Discogs collection (2 copies) · In your wantlist")
        let pages = h.requests("GET", containing: "/wants").map { $0.queryItem("page") }
        #expect(pages == ["1", "2", "3"])
        #expect(h.requests("GET", containing: "/wants").allSatisfy { $0.queryItem("per_page") == "100" })
        #expect(h.requests("GET", containing: "/collection/releases/\(Self.rumours)").count == 1)
        // Cached: the same answer without a request.
        #expect(try h.account().cachedStatus(releaseID: Self.rumours) == status)
        #expect(try h.account().cachedStatus(releaseID: 421391)?.inWantlist == false)
    }

    @Test func statusIsReadAgainOnlyAfterTheRefreshWindow() async throws {
        let h = try DiscogsAccountHarness()
        h.world.collection.withLock { $0[Self.rumours] = 1 }
        let account = h.account()
        #expect(try await account.status(releaseID: Self.rumours).copies == 1)
        let asked = h.server.requests.count
        h.world.collection.withLock { $0[Self.rumours] = 3 }
        h.clock.advance(by: DiscogsAccount.defaultRefreshInterval - 60)
        #expect(try await account.status(releaseID: Self.rumours).copies == 1)
        #expect(h.server.requests.count == asked)
        h.clock.advance(by: 61)
        #expect(try await account.status(releaseID: Self.rumours).copies == 3)
        #expect(h.server.requests.count == asked + 2)  // the copies and the one wantlist page
    }

    @Test func aReleaseTheUserDoesNotHaveOrDiscogsDoesNotKnowIsNoCopy() async throws {
        let h = try DiscogsAccountHarness()
        h.world.unknownReleases.withLock { $0 = [999] }
        let status = try await h.account().status(releaseID: 999)
        #expect(status.copies == 0 && status.inWantlist == false && status.line == nil)
        #expect(try await h.account().status(releaseID: Self.rumours).copies == 0)
    }

    @Test func aNextPageOnAnotherHostIsNotFollowed() async throws {
        let h = try DiscogsAccountHarness()
        h.server.route("/users/rob_digs/wants", method: "GET") { _ in
            .json(#"{"pagination": {"page": 1, "pages": 2, "per_page": 100, "items": 101, "urls": {"next": "http://elsewhere.invalid/users/rob_digs/wants?page=2"}}, "wants": [{"id": 5}]}"#)
        }
        let error = await #expect(throws: DiscogsAccountError.self) { try await h.account().status(releaseID: Self.rumours) }
        #expect(error == .malformedResponse)
        #expect(h.requests("GET", containing: "/wants").count == 1)
    }

    @Test func aMalformedCollectionReplyIsAnErrorNotZeroCopies() async throws {
        let h = try DiscogsAccountHarness()
        h.server.route("/users/rob_digs/collection/releases/*", method: "GET") { _ in .json(#"{"message": "oops"}"#) }
        let error = await #expect(throws: DiscogsAccountError.self) { try await h.account().status(releaseID: Self.rumours) }
        #expect(error == .malformedResponse)
        #expect(try h.account().cachedStatus(releaseID: Self.rumours)?.copies == nil)
    }

    /// One slow moment (a read that got no answer) is asked once more; a read that got an answer
    /// (busy) and a write that may have arrived are not asked again in the call.
    @Test func onlyAReadThatGotNoAnswerIsAskedAgain() async throws {
        let h = try DiscogsAccountHarness()
        h.world.collection.withLock { $0[Self.rumours] = 2 }
        h.world.readFailures.withLock { $0 = [.noAnswer] }
        #expect(try await h.account().status(releaseID: Self.rumours).copies == 2)
        #expect(h.requests("GET", containing: "/oauth/identity").count == 2)  // the first read had no answer

        h.world.readFailures.withLock { $0 = [.unavailable(status: 503)] }
        await #expect(throws: DiscogsAccountError.self) { try await h.account().status(releaseID: 421391) }
        #expect(h.requests("GET", containing: "/collection/releases/421391").count == 1)

        h.world.writeFailures.withLock { $0 = [.noAnswer] }
        await #expect(throws: (any Error).self) { _ = try await h.account().client.addToCollection(username: "rob_digs", releaseID: Self.rumours) }
        #expect(h.world.writes.withLock { $0 } == ["POST \(Self.rumours)"])
    }

    @Test func aRateLimitedStatusReadWaitsAndSaysSo() async throws {
        let h = try DiscogsAccountHarness()
        h.world.failure.withLock { $0 = .rateLimited(retryAfter: 20) }
        let error = await #expect(throws: DiscogsAccountError.self) { try await h.account().status(releaseID: Self.rumours) }
        #expect(error == .rateLimited(seconds: 20))
        #expect(h.server.requests.count == 1)
    }
}

/// The replies read down to counts and ids, leniently, never a price.
@Suite("Discogs account replies")
struct DiscogsAccountRepliesTests {
    @Test func theTotalCountsWhenThereAreMoreInstancesThanOnePage() throws {
        let body = #"{"pagination": {"page": 1, "pages": 2, "per_page": 50, "items": "60", "urls": {"next": "x"}}, "releases": [{"instance_id": 1}, {"instance_id": 2}]}"#
        #expect(try DiscogsAccountReplies.copies(in: Data(body.utf8)) == 60)
        // An impossible total (fewer than listed) falls back to the instances listed.
        let odd = #"{"pagination": {"items": 1}, "releases": [{"instance_id": 1}, {"instance_id": 2}]}"#
        #expect(try DiscogsAccountReplies.copies(in: Data(odd.utf8)) == 2)
        #expect(throws: DiscogsError.malformedResponse) { try DiscogsAccountReplies.copies(in: Data(#"{"releases": null}"#.utf8)) }
        #expect(throws: DiscogsError.malformedResponse) { try DiscogsAccountReplies.copies(in: Data("<html>".utf8)) }
    }

    @Test func wantsAreReadByIdOrBasicInformationAndOddItemsSkipped() throws {
        let body = #"{"pagination": {"urls": {"next": "https://api.discogs.com/users/u/wants?page=2"}}, "wants": [{"id": 5}, {"basic_information": {"id": "6"}}, {"id": -1}, "x", {"id": 1e300}]}"#
        let page = try DiscogsAccountReplies.wantsPage(Data(body.utf8))
        #expect(page.releaseIDs == [5, 6] && page.next?.absoluteString == "https://api.discogs.com/users/u/wants?page=2")
        #expect(try DiscogsAccountReplies.wantsPage(Data(#"{"wants": []}"#.utf8)).next == nil)
        #expect(DiscogsAccountReplies.instanceID(in: Data(#"{"instance_id": 1001}"#.utf8)) == 1001)
        #expect(DiscogsAccountReplies.instanceID(in: Data()) == nil)
    }

    @Test func aUserNameIsOnePathSegment() throws {
        let client = DiscogsClient(http: CurlHTTPClient(), limiter: RateLimiter(clock: TestClock()), baseURL: URL(string: "https://api.discogs.com/")!,
                                   token: "t", contact: "c")
        #expect(try client.userURL("a/b c", "wants", query: [URLQueryItem(name: "page", value: "1")]).absoluteString
                == "https://api.discogs.com/users/a%2Fb%20c/wants?page=1")
        #expect(throws: DiscogsError.self) { try client.userURL("", "wants") }
        #expect(client.sameOrigin(URL(string: "https://api.discogs.com:443/users/u/wants?page=2")!))
        #expect(!client.sameOrigin(URL(string: "http://api.discogs.com/users/u/wants?page=2")!))
    }
}
