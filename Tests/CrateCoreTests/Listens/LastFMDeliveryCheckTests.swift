import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// Last.fm counts a repeated scrobble, so a batch whose request ended unknown (a 502 after
/// Last.fm stored it, no answer) is checked against `user.getRecentTracks` before it goes again.
@Suite("Last.fm: a batch it may have taken is looked up, never scrobbled twice")
struct LastFMDeliveryCheckTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func client(_ server: FixtureServer, user: String? = LastFMInbox.user, timeout: TimeInterval = 5) -> LastFMClient {
        LastFMClient(http: CurlHTTPClient(), baseURL: server.url("/2.0/"), apiKey: "key1", secret: "shh", sessionKey: "sk1", user: user,
                     timeout: timeout)
    }

    static func sender(_ db: AppDatabase, _ client: LastFMClient, owner: String, at date: Date) -> ListenSender {
        var sender = ListenSender(database: db, submitters: [client], owner: ListenOutboxTests.owner(owner))
        sender.now = { date }
        return sender
    }

    static func queue(_ db: AppDatabase, _ numbers: Range<Int>) throws {
        for n in numbers {
            try db.queueListen(ListenOutboxTests.track(n), listenedAt: start.addingTimeInterval(Double(n) * 200), services: [.lastFM])
        }
    }

    static func recentRequests(_ server: FixtureServer) -> [RecordedRequest] {
        server.requests(path: "/2.0/").filter { $0.method == "GET" && $0.queryItem("method") == "user.getRecentTracks" }
    }

    static func scrobbleRequests(_ server: FixtureServer) -> Int {
        server.requests(path: "/2.0/").filter { ListenFixtures.form($0.body)["method"] == "track.scrobble" }.count
    }

    /// Last.fm on `server` and a library of three Last.fm listens whose batch process "a" sent at
    /// `start` while Last.fm took it and its answer was lost (502): the marked batch the look-up
    /// starts from. Last.fm accepts again afterwards.
    static func unansweredBatch(on server: FixtureServer, user: String? = LastFMInbox.user) async throws -> (LastFMInbox, AppDatabase) {
        let inbox = LastFMInbox()
        inbox.install(on: server)
        let db = try AppDatabase.inMemory()
        try queue(db, 0..<3)
        inbox.mode.withLock { $0 = .acceptThenBadGateway }
        _ = await sender(db, client(server, user: user), owner: "a", at: start).run()
        inbox.mode.withLock { $0 = .accept }
        return (inbox, db)
    }

    @Test(arguments: [LastFMInbox.Mode.acceptThenBadGateway, .acceptThenHang])
    func aBatchTakenWhoseAnswerWasLostIsScrobbledOnce(mode: LastFMInbox.Mode) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = LastFMInbox()
        inbox.install(on: server)
        let db = try AppDatabase.inMemory()
        try Self.queue(db, 0..<3)
        inbox.mode.withLock { $0 = mode }
        let lost = await Self.sender(db, Self.client(server, timeout: 0.5), owner: "a", at: Self.start).run()
        #expect(lost[.lastFM]?.sent == 0 && lost[.lastFM]?.deferred == 3)
        #expect(inbox.scrobbles.withLock { $0.count } == 3)
        // A listen queued meanwhile was never sent: it goes with the retry.
        try Self.queue(db, 3..<4)
        inbox.mode.withLock { $0 = .accept }
        let retry = await Self.sender(db, Self.client(server), owner: "b", at: Self.start.addingTimeInterval(3_700)).run()
        #expect(retry[.lastFM]?.sent == 4 && retry[.lastFM]?.alreadyThere == 3)
        #expect(inbox.scrobbles.withLock { $0.map(\.title) } == ["Track 0", "Track 1", "Track 2", "Track 3"] && inbox.duplicates == 0)
        // One look over the batch's seconds, unsigned, by the stored user; then one scrobble of the rest.
        let look = try #require(Self.recentRequests(server).first)
        #expect(Self.recentRequests(server).count == 1 && look.queryItem("user") == "rob" && look.queryItem("api_sig") == nil)
        #expect(look.queryItem("from") == "1699999998" && look.queryItem("to") == "1700000402" && look.queryItem("limit") == "200")
        #expect(Self.scrobbleRequests(server) == 2)
        let status = try #require(try db.listenStatus()[.lastFM])
        #expect(status.sent == 4 && status.queued == 0)
        // Nothing is left marked: the next batch goes without a look.
        try Self.queue(db, 4..<5)
        _ = await Self.sender(db, Self.client(server), owner: "c", at: Self.start.addingTimeInterval(7_400)).run()
        #expect(Self.recentRequests(server).count == 1 && inbox.scrobbles.withLock { $0.count } == 5)
    }

    @Test(arguments: [LastFMInbox.RecentMode.unavailable, .offline, .hang])
    func whenLastFMCannotTellNothingIsSentAndTheListensWait(recent: LastFMInbox.RecentMode) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (inbox, db) = try await Self.unansweredBatch(on: server)
        inbox.recentMode.withLock { $0 = recent }
        let blind = await Self.sender(db, Self.client(server, timeout: 0.5), owner: "b", at: Self.start.addingTimeInterval(3_700)).run()
        #expect(blind[.lastFM]?.sent == 0 && blind[.lastFM]?.deferred == 3 && blind[.lastFM]?.lastError != nil)
        #expect(Self.scrobbleRequests(server) == 1 && inbox.scrobbles.withLock { $0.count } == 3)
        let status = try #require(try db.listenStatus()[.lastFM])
        #expect(status.queued == 3 && status.sent == 0 && status.failed == 0)
        // Back: the look is made again (the marks stayed), and nothing is scrobbled twice.
        inbox.recentMode.withLock { $0 = .answer }
        let back = await Self.sender(db, Self.client(server), owner: "c", at: Self.start.addingTimeInterval(7_400 + 3_600)).run()
        #expect(back[.lastFM]?.sent == 3 && back[.lastFM]?.alreadyThere == 3 && inbox.duplicates == 0 && Self.scrobbleRequests(server) == 1)
    }

    @Test func withoutAStoredUserTheSessionNamesItAndACrowdedSpanIsAskedListenByListen() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (inbox, db) = try await Self.unansweredBatch(on: server, user: nil)
        // Another scrobbler filled the batch's span: 1 200 scrobbles, six pages.
        inbox.scrobbles.withLock { list in
            list += (0..<1_200).map { LastFMScrobble(artist: "Radio", title: "Song \($0)", at: 1_700_000_001 + $0 / 4) }
        }
        inbox.mode.withLock { $0 = .accept }
        let retry = await Self.sender(db, Self.client(server, user: nil), owner: "b", at: Self.start.addingTimeInterval(3_700)).run()
        #expect(retry[.lastFM]?.alreadyThere == 3 && inbox.duplicates == 0)
        #expect(server.requests(path: "/2.0/").contains { ListenFixtures.form($0.body)["method"] == "user.getInfo" })
        // The whole span (page 1 says 6 pages), then a few seconds around each of the three listens.
        #expect(Self.recentRequests(server).count == 4)
    }

    @Test func theLookUpWaitsAMinuteAfterTheUnansweredRequest() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (inbox, db) = try await Self.unansweredBatch(on: server)
        // Due again after the 30 s back-off, but a scrobble just taken may not be listed yet.
        let early = await Self.sender(db, Self.client(server), owner: "b", at: Self.start.addingTimeInterval(40)).run()
        #expect(early[.lastFM]?.deferred == 3 && early[.lastFM]?.sent == 0 && Self.recentRequests(server).isEmpty)
        #expect(try db.nextListenDue(services: [.lastFM]) == Self.start.addingTimeInterval(ListenSender.lookUpDelay))
        let later = await Self.sender(db, Self.client(server), owner: "c", at: Self.start.addingTimeInterval(61)).run()
        #expect(later[.lastFM]?.alreadyThere == 3 && inbox.duplicates == 0 && Self.scrobbleRequests(server) == 1)
    }

    @Test func aLoneRecentTrackComesAsAnObjectAndIsStillFound() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = LastFMInbox()
        inbox.install(on: server)
        inbox.playingNow.withLock { $0 = nil }
        let db = try AppDatabase.inMemory()
        try Self.queue(db, 0..<1)
        inbox.mode.withLock { $0 = .acceptThenBadGateway }
        _ = await Self.sender(db, Self.client(server), owner: "a", at: Self.start).run()
        inbox.mode.withLock { $0 = .accept }
        let retry = await Self.sender(db, Self.client(server), owner: "b", at: Self.start.addingTimeInterval(3_700)).run()
        #expect(retry[.lastFM]?.alreadyThere == 1 && inbox.duplicates == 0 && Self.scrobbleRequests(server) == 1)
    }

    @Test func aScrobbleMatchesWithinASecondAndFoldedNames() {
        let listen = QueuedListen(id: 1, service: .lastFM, track: ListenTrack(artist: "The Cure", title: "Just Like Heaven"), listenedAt: Self.start)
        #expect(LastFMScrobble(artist: "Cure, The", title: "Just like heaven", at: 1_700_000_001).matches(listen))
        #expect(LastFMScrobble(artist: "the cure", title: "Just Like Heaven (Remastered)", at: 1_699_999_999).matches(listen))
        #expect(!LastFMScrobble(artist: "The Cure", title: "Just Like Heaven", at: 1_700_000_002).matches(listen))
        #expect(!LastFMScrobble(artist: "The Cure", title: "Lullaby", at: 1_700_000_000).matches(listen))
        #expect(!LastFMScrobble(artist: "Cure Tribute Band", title: "Just Like Heaven", at: 1_700_000_000).matches(listen))
    }
}
