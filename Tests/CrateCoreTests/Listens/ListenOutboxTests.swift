import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

@Suite("The listen outbox: queued once, claimed by one process, sent exactly once")
struct ListenOutboxTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func track(_ n: Int) -> ListenTrack {
        ListenTrack(artist: "Artist", title: "Track \(n)", release: "LP", durationMs: 200_000, recordingID: ListenBrainzFixtures.mbid(5, n))
    }

    static func owner(_ token: String) -> BatchLeaseOwner {
        BatchLeaseOwner(host: "here", processID: getpid(), startTime: BatchLeaseOwner().startTime, token: token)
    }

    @Test func aListenIsQueuedOncePerServiceAndClaimedByOneOwner() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.queueListen(Self.track(1), listenedAt: Self.start, services: [.listenBrainz, .lastFM]) == 2)
        // The same listen again (a second process saw the same play): nothing new.
        #expect(try db.queueListen(Self.track(1), listenedAt: Self.start.addingTimeInterval(0.4), services: [.listenBrainz, .lastFM]) == 0)
        #expect(try db.queueListen(Self.track(1), listenedAt: Self.start.addingTimeInterval(300), services: [.listenBrainz]) == 1)
        let first = try db.claimListens(service: .listenBrainz, limit: 1000, owner: Self.owner("a"), at: Self.start)
        #expect(first.count == 2 && first[0].listenedAt == Self.start && first[0].track == Self.track(1))
        #expect(try db.claimListens(service: .listenBrainz, limit: 1000, owner: Self.owner("b"), at: Self.start).isEmpty)
        #expect(try db.claimListens(service: .lastFM, limit: 50, owner: Self.owner("b"), at: Self.start).count == 1)
        // Only the lease's owner settles; a lapsed lease goes to the next claimer.
        try db.settleListens(ids: first.map(\.id), sent: true, owner: Self.owner("b"))
        #expect(try db.listenStatus()[.listenBrainz]?.sent == 0)
        let later = Self.start.addingTimeInterval(121)
        #expect(try db.claimListens(service: .listenBrainz, limit: 1000, owner: Self.owner("b"), at: later).count == 2)
    }

    @Test func aWrongTokenStopsThePassAndKeepsTheListens() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = ListenInbox()
        inbox.install(on: server)
        inbox.mode.withLock { $0 = .unauthorized }
        let db = try AppDatabase.inMemory()
        for n in 0..<3 { try db.queueListen(Self.track(n), listenedAt: Self.start.addingTimeInterval(Double(n) * 300), services: [.listenBrainz]) }
        let sender = ListenSender(database: db, submitters: [ListenBrainzListensTests.client(server, limiter: nil)])
        let summary = await sender.run()
        #expect(summary[.listenBrainz]?.deferred == 3 && summary[.listenBrainz]?.sent == 0)
        let status = try #require(try db.listenStatus()[.listenBrainz])
        #expect(status.queued == 3 && status.failed == 0 && status.lastError?.contains("token") == true && status.nextAttemptAt != nil)
        #expect(server.requests(path: "/1/submit-listens").count == 1)
        // Fixed: `crate listens send` makes them due, and they go.
        inbox.mode.withLock { $0 = .accept }
        try db.makeListensDue()
        #expect(await sender.run()[.listenBrainz]?.sent == 3)
    }

    @Test func aRefusedBatchIsSplitAndOnlyTheBadListenFails() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let accepted = Mutex<[String]>([])
        server.route("/1/submit-listens", method: "POST") { request in
            let body = ListenFixtures.listens(request.body)
            if body.listens.contains(where: { $0.track == "Track 1" }) { return .json(ListenFixtures.listenBrainzBadRequest, status: 400) }
            accepted.withLock { $0 += body.listens.map(\.track) }
            return .json(ListenFixtures.listenBrainzOK)
        }
        let db = try AppDatabase.inMemory()
        for n in 0..<3 { try db.queueListen(Self.track(n), listenedAt: Self.start.addingTimeInterval(Double(n) * 300), services: [.listenBrainz]) }
        let summary = await ListenSender(database: db, submitters: [ListenBrainzListensTests.client(server, limiter: nil)]).run()
        #expect(summary[.listenBrainz]?.sent == 2 && summary[.listenBrainz]?.failed == 1)
        #expect(accepted.withLock { $0 } == ["Track 0", "Track 2"])
        let status = try #require(try db.listenStatus()[.listenBrainz])
        #expect(status.sent == 2 && status.failed == 1 && status.queued == 0)
    }

    /// 20 "process lifetimes": each queues new listens, and then is killed after claiming a
    /// batch, finds the network gone (503 or no answer at all), sends, or is killed after Last.fm
    /// took a batch. Last.fm also takes batches whose answer is lost (a 502 or none). Every listen
    /// arrives at both services, and none arrives twice (Last.fm would count it twice).
    @Test func everyListenArrivesExactlyOnceAcross20KillsAndOutages() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = ListenInbox()
        inbox.install(on: server)
        let lastFM = LastFMInbox()
        lastFM.install(on: server)
        let db = try AppDatabase.inMemory()
        var now = Self.start
        var expected: Set<String> = []
        var n = 0
        let services: [ListenService] = [.listenBrainz, .lastFM]
        for cycle in 0..<20 {
            for _ in 0..<3 {
                let at = now.addingTimeInterval(Double(n))
                try db.queueListen(Self.track(n), listenedAt: at, services: services)
                expected.insert("\(Int(at.timeIntervalSince1970)) Track \(n)")
                n += 1
            }
            // A play seen twice (the window and the CLI): still one listen.
            try db.queueListen(Self.track(n - 1), listenedAt: now.addingTimeInterval(Double(n - 1)), services: services)
            let process = Self.owner("process-\(cycle)")
            let clock = now
            func sender(timeout: TimeInterval = 5) -> ListenSender {
                var sender = ListenSender(database: db, submitters: [
                    ListenBrainzListens(http: CurlHTTPClient(), baseURL: server.baseURL, token: "tok", timeout: timeout),
                    LastFMDeliveryCheckTests.client(server, timeout: timeout),
                ], owner: process)
                sender.now = { clock }
                return sender
            }
            switch cycle % 5 {
            case 0:
                // Killed right after claiming: the lease is left behind, nothing was sent.
                for service in services { _ = try db.claimListens(service: service, limit: 1000, owner: process, at: now) }
            case 1:
                // The network gone: nothing can be looked up; Last.fm may still take a batch and the 502 be all that comes back.
                inbox.mode.withLock { $0 = .unavailable }
                lastFM.mode.withLock { $0 = cycle < 10 ? .unavailable : .acceptThenBadGateway }
                lastFM.recentMode.withLock { $0 = .unavailable }
                let summary = await sender().run()
                #expect(summary[.listenBrainz]?.sent == 0 && summary[.lastFM]?.sent == 0)
            case 2:
                // No answer at all (Last.fm: after taking the batch, every other time).
                inbox.mode.withLock { $0 = .hang }
                lastFM.mode.withLock { $0 = cycle < 10 ? .hang : .acceptThenHang }
                lastFM.recentMode.withLock { $0 = .hang }
                let summary = await sender(timeout: 0.3).run()
                #expect(summary[.listenBrainz]?.sent == 0 && summary[.lastFM]?.sent == 0)
            case 3:
                inbox.mode.withLock { $0 = .accept }
                lastFM.mode.withLock { $0 = .accept }
                lastFM.recentMode.withLock { $0 = .answer }
                _ = await sender().run()
            default:
                // Killed after Last.fm took a batch, before it was settled: what the sender does up to
                // that point — claim, mark, send. (After the pass of case 3, the batch is this cycle's
                // new listens only, none of which an earlier request carried.)
                _ = await sender().run()
                try db.queueListen(Self.track(n), listenedAt: now.addingTimeInterval(Double(n) + 1), services: services)
                expected.insert("\(Int(now.timeIntervalSince1970) + n + 1) Track \(n)")
                n += 1
                let batch = try db.claimListens(service: .lastFM, limit: 50, owner: process, at: now)
                try #require(!batch.isEmpty && batch.allSatisfy { !$0.maybeDelivered })
                #expect(try db.markListensSending(ids: batch.map(\.id), owner: process, at: now))
                try await LastFMDeliveryCheckTests.client(server).submit(batch)
            }
            // The next process starts later: leases lapsed, back-offs (at most an hour) over.
            now = now.addingTimeInterval(3_700)
        }
        inbox.mode.withLock { $0 = .accept }
        lastFM.mode.withLock { $0 = .accept }
        lastFM.recentMode.withLock { $0 = .answer }
        let clock = now
        var last = ListenSender(database: db, submitters: [ListenBrainzListensTests.client(server, limiter: nil), LastFMDeliveryCheckTests.client(server)],
                                owner: Self.owner("last"))
        last.now = { clock }
        _ = await last.run()
        let accepted = inbox.accepted.withLock { $0 }
        #expect(accepted.count == expected.count)
        #expect(Set(accepted) == expected)
        let scrobbled = lastFM.scrobbles.withLock { $0 }.map { "\($0.at) \($0.title)" }
        #expect(lastFM.duplicates == 0)
        #expect(scrobbled.count == expected.count && Set(scrobbled) == expected)
        for service in services {
            let status = try #require(try db.listenStatus()[service])
            #expect(status.sent == expected.count && status.queued == 0 && status.failed == 0)
        }
    }

    @Test func twoProcessesSendingAtOnceNeverSendOneListenTwice() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = ListenInbox()
        inbox.install(on: server)
        let db = try AppDatabase.inMemory()
        for n in 0..<120 { try db.queueListen(Self.track(n), listenedAt: Self.start.addingTimeInterval(Double(n)), services: [.lastFM]) }
        // Last.fm's batches of 50, each listen on its own request, so the two really interleave.
        let submitter = ListenBrainzListensTests.client(server, limiter: nil)
        var one = ListenSender(database: db, submitters: [OneAtATime(base: submitter)], owner: Self.owner("window"))
        var two = ListenSender(database: db, submitters: [OneAtATime(base: submitter)], owner: Self.owner("cli"))
        // The claims, not the leases' lapse, are under test: time stands still, so a loaded machine
        // that takes two minutes over a batch of 50 does not hand it to the other sender.
        let now = Date()
        one.now = { now }
        two.now = { now }
        async let a = one.run(maxBatches: 200)
        async let b = two.run(maxBatches: 200)
        let (ra, rb) = await (a, b)
        #expect((ra[.lastFM]?.sent ?? 0) + (rb[.lastFM]?.sent ?? 0) == 120)
        let accepted = inbox.accepted.withLock { $0 }
        #expect(accepted.count == 120 && Set(accepted).count == 120)
    }
}

/// Last.fm's batch size over ListenBrainz's inbox, one listen a request, so two senders take turns.
struct OneAtATime: ListenSubmitter {
    let base: ListenBrainzListens
    var service: ListenService { .lastFM }
    var isConfigured: Bool { true }
    func nowPlaying(_ track: ListenTrack) async throws {}
    func submit(_ listens: [QueuedListen]) async throws {
        for listen in listens { try await base.submit([listen]) }
    }
}
