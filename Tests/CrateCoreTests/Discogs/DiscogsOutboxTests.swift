@testable import CrateCore
import CrateTestSupport
import Foundation
import GRDB
import Testing

/// "Add to Discogs Collection" / "Add to Wantlist" through the persisted outbox: queued once,
/// claimed by one process, retried on outages and pauses, and a collection POST never sent
/// twice — even when its answer was lost (docs/decisions/0044-discogs-account-and-outbox.md).
@Suite("Discogs outbox")
struct DiscogsOutboxTests {
    static let rumours = DiscogsAccountHarness.rumours

    @Test func anActionIsQueuedOnceWhileItWaits() throws {
        let h = try DiscogsAccountHarness()
        let album = try h.linkedAlbum()
        #expect(try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: album))
        #expect(try !h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: album))
        #expect(try h.database.queueDiscogs(.addToWantlist, releaseID: Self.rumours, albumID: album))
        let claimed = try #require(try h.database.claimDiscogsAction(owner: DiscogsAccountHarness.owner("a")))
        #expect(claimed.action == .addToCollection && claimed.releaseID == Self.rumours && claimed.albumID == album && claimed.attempts == 1)
        // The other row goes to the other process; nothing is left for a third.
        #expect(try h.database.claimDiscogsAction(owner: DiscogsAccountHarness.owner("b"))?.action == .addToWantlist)
        #expect(try h.database.claimDiscogsAction(owner: DiscogsAccountHarness.owner("c")) == nil)
        // Once sent, another copy may be asked for deliberately.
        try h.database.settleDiscogsAction(id: claimed.id, .sent, owner: DiscogsAccountHarness.owner("a"))
        #expect(try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: album))
    }

    @Test func queuedOfflineItIsSentExactlyOnceWhenDiscogsIsBack() async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        let offline = await h.sender(baseURL: DiscogsAccountHarness.offlineURL).run()
        #expect(offline.deferred == 1 && offline.sent == 0 && offline.lastError?.contains("Could not reach Discogs") == true)
        #expect(try h.rows().first?.state == "pending")
        #expect(h.world.writeCount == 0)
        // Not due yet: a pass in between sends nothing.
        #expect(await h.sender().run() == DiscogsOutboxSummary())
        h.clock.advance(by: 31)
        let back = await h.sender().run()
        #expect(back.sent == 1 && back.deferred == 0)
        #expect(h.world.writes.withLock { $0 } == ["POST \(Self.rumours)"])
        #expect(h.world.collection.withLock { $0[Self.rumours] } == 1)
        h.clock.advance(by: 3600)
        #expect(await h.sender().run() == DiscogsOutboxSummary())
        #expect(h.world.writeCount == 1)
        let row = try #require(try h.rows().first)
        #expect(row.state == "sent" && row.error == nil)
        // The cache knows the new copy without asking.
        #expect(try h.account().cachedStatus(releaseID: Self.rumours)?.copies == 1)
    }

    @Test func a429WithRetryAfterAndTheWindowSpentWaitsWithoutAnotherRequest() async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToWantlist, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        try h.database.queueDiscogs(.addToCollection, releaseID: 421391, albumID: nil)
        h.world.writeFailures.withLock { $0 = [.rateLimited(retryAfter: 30)] }
        let start = h.clock.now()
        let first = await h.sender().run()
        #expect(first.deferred == 1 && first.sent == 0 && first.lastError?.contains("slow down") == true)
        // The pass stopped: the second row was not tried during the pause.
        #expect(h.world.writes.withLock { $0 } == ["PUT \(Self.rumours)"])
        let row = try #require(try h.rows().first)
        #expect(row.state == "pending" && row.next >= start.addingTimeInterval(30).timeIntervalSince1970 - 1)
        let asked = h.server.requests.count
        #expect(await h.sender().run() == DiscogsOutboxSummary())
        #expect(h.server.requests.count == asked)
        h.clock.advance(by: 31)
        let later = await h.sender().run()
        #expect(later.sent == 2)
        #expect(h.world.wants.withLock { $0 } == [Self.rumours] && h.world.collection.withLock { $0[421391] } == 1)
        // The window was spent (Remaining 0): the next request waited for it on the shared clock.
        #expect(h.clock.sleeps.contains { $0 > 1 })
    }

    @Test(arguments: [DiscogsAccountWorld.Failure.unauthorized, .forbidden])
    func aRefusedTokenKeepsTheAdditionAndSaysSo(_ failure: DiscogsAccountWorld.Failure) async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        h.world.writeFailures.withLock { $0 = [failure] }
        let summary = await h.sender().run()
        #expect(summary.tokenRefused && summary.deferred == 1 && summary.failed == 0)
        let row = try #require(try h.rows().first)
        #expect(row.state == "pending" && row.error?.contains("refused the token") == true && row.postedAt == nil)
        #expect(try h.database.read(DiscogsOutboxStatusRequest()).lastError == row.error)
        // A new token, and `crate discogs send`: it goes, once.
        try h.database.makeDiscogsActionsDue()
        #expect(await h.sender().run().sent == 1)
        #expect(h.world.collection.withLock { $0[Self.rumours] } == 1 && h.world.writeCount == 2)
    }

    @Test func anUnknownReleaseFailsWithAMessageAndIsNotSentAgain() async throws {
        let h = try DiscogsAccountHarness()
        h.world.unknownReleases.withLock { $0 = [77] }
        try h.database.queueDiscogs(.addToWantlist, releaseID: 77, albumID: nil)
        try h.database.queueDiscogs(.addToCollection, releaseID: 77, albumID: nil)
        let summary = await h.sender().run()
        #expect(summary.failed == 2 && summary.sent == 0)
        #expect(try h.rows().map(\.state) == ["failed", "failed"])
        #expect(try h.rows().allSatisfy { $0.error == "Discogs knows no release 77, so it could not be added." })
        h.clock.advance(by: 86_400)
        try h.database.makeDiscogsActionsDue()
        #expect(await h.sender().run() == DiscogsOutboxSummary())
        #expect(h.world.writeCount == 2)
    }

    @Test func aServerErrorIsRetriedWithBackOffAndTheCopyAddedOnce() async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        h.world.writeFailures.withLock { $0 = [.unavailable(status: 503), .unavailable(status: 500)] }
        #expect(await h.sender().run().deferred == 1)
        let first = try #require(try h.rows().first)
        // 30 s after the failure (the clock moved on by the pacing of the requests before it).
        #expect(first.state == "pending" && abs(first.next - h.clock.now().timeIntervalSince1970 - 30) < 2 && first.postedAt != nil)
        #expect(await h.sender().run() == DiscogsOutboxSummary())
        h.clock.advance(by: 31)
        #expect(await h.sender().run().deferred == 1)
        let second = try #require(try h.rows().first)
        #expect(abs(second.next - h.clock.now().timeIntervalSince1970 - 60) < 2)
        h.clock.advance(by: 65)
        #expect(await h.sender().run().sent == 1)
        // Three POSTs reached Discogs; only the last one was carried out.
        #expect(h.world.writeCount == 3 && h.world.collection.withLock { $0[Self.rumours] } == 1)
    }

    @Test func aPostCarriedOutWhoseAnswerWasLostIsNotRepeated() async throws {
        let h = try DiscogsAccountHarness()
        h.world.collection.withLock { $0[Self.rumours] = 1 }
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        // The proxy answers 502 after Discogs added the copy.
        h.world.writeFailures.withLock { $0 = [.acceptThenFail(status: 502)] }
        #expect(await h.sender().run().deferred == 1)
        #expect(h.world.collection.withLock { $0[Self.rumours] } == 2)
        h.clock.advance(by: 31)
        let summary = await h.sender().run()
        #expect(summary.alreadyDone == 1 && summary.sent == 0)
        #expect(h.world.writeCount == 1 && h.world.collection.withLock { $0[Self.rumours] } == 2)
        #expect(try h.rows().first?.state == "sent")
    }

    @Test func aProcessKilledAfterItsPostWasAcceptedLeavesNoSecondCopy() async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        // The window's process: claims, notes the count, POSTs (accepted) — and dies.
        let dead = DiscogsAccountHarness.owner("killed")
        let item = try #require(try h.database.claimDiscogsAction(owner: dead, leaseDuration: 300, at: h.clock.now()))
        #expect(try h.database.recordDiscogsPost(id: item.id, username: "rob_digs", copiesBefore: 0, owner: dead, leaseDuration: 300, at: h.clock.now()))
        try await h.client().addToCollection(username: "rob_digs", releaseID: Self.rumours)
        // Not while the lease holds; after it, the CLI finds the copy there and sends nothing.
        #expect(await h.sender(owner: "cli").run() == DiscogsOutboxSummary())
        h.clock.advance(by: 301)
        let summary = await h.sender(owner: "cli").run()
        #expect(summary.alreadyDone == 1)
        #expect(h.world.writeCount == 1 && h.world.collection.withLock { $0[Self.rumours] } == 1)
    }

    @Test func aProcessKilledBeforeItsPostLeftSendsItOnce() async throws {
        let h = try DiscogsAccountHarness()
        try h.database.queueDiscogs(.addToCollection, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        let dead = DiscogsAccountHarness.owner("killed")
        let item = try #require(try h.database.claimDiscogsAction(owner: dead, leaseDuration: 300, at: h.clock.now()))
        #expect(try h.database.recordDiscogsPost(id: item.id, username: "rob_digs", copiesBefore: 0, owner: dead, leaseDuration: 300, at: h.clock.now()))
        h.clock.advance(by: 301)
        #expect(await h.sender(owner: "cli").run().sent == 1)
        #expect(h.world.writeCount == 1 && h.world.collection.withLock { $0[Self.rumours] } == 1)
    }

    @Test func twoProcessesOnOneLibrarySendEachAdditionOnce() async throws {
        let dir = try TemporaryDirectory()
        let window = try AppDatabase.open(paths: dir.paths)
        let cli = try AppDatabase.open(paths: dir.paths)
        let h = try DiscogsAccountHarness(database: window)
        let releases = (1...8).map { 100 + $0 }
        for release in releases {
            try window.queueDiscogs(.addToCollection, releaseID: release, albumID: nil)
            try window.queueDiscogs(.addToWantlist, releaseID: release, albumID: nil)
        }
        async let a = h.sender(owner: "window", database: window).run()
        async let b = h.sender(owner: "cli", database: cli).run()
        let (ra, rb) = await (a, b)
        #expect(ra.sent + rb.sent == 16)
        let writes = h.world.writes.withLock { $0 }
        #expect(writes.count == 16 && Set(writes).count == 16)
        #expect(h.world.collection.withLock { $0 } == Dictionary(uniqueKeysWithValues: releases.map { ($0, 1) }))
        #expect(try cli.read(DiscogsOutboxStatusRequest()).sent == 16)
    }

    @Test func aWantlistAdditionIsSentAndTheCacheKnowsIt() async throws {
        let h = try DiscogsAccountHarness()
        let account = h.account()
        _ = try await account.status(releaseID: Self.rumours)
        try h.database.queueDiscogs(.addToWantlist, releaseID: Self.rumours, albumID: try h.linkedAlbum())
        #expect(await h.sender().run().sent == 1)
        let put = try #require(h.requests("PUT").first)
        #expect(put.path == "/users/rob_digs/wants/\(Self.rumours)" && put.headers["authorization"] == "Discogs token=disc-token")
        #expect(try account.cachedStatus(releaseID: Self.rumours)?.inWantlist == true)
    }
}
