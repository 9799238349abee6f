import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// The window sends waiting listens when they are due: when that is, and how long it sleeps.
@Suite("Listens waiting in the outbox")
struct ListenOutboxResendTests {
    @Test func theNextDueListenIsTheEarliestPendingOneOfTheServicesOn() throws {
        let temp = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: temp.paths)
        #expect(try database.nextListenDue(services: [.listenBrainz]) == nil)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for n in 0..<3 {
            try database.queueListen(ListenTrack(artist: "Band", title: "Song \(n)", durationMs: 200_000),
                                     listenedAt: start.addingTimeInterval(Double(n) * 300), services: [.listenBrainz, .lastFM])
        }
        // Claimed and deferred: due when the service said.
        let batch = try database.claimListens(service: .listenBrainz, limit: 10, at: start)
        try database.settleListens(ids: batch.map(\.id), sent: false, error: "offline", retryAt: start.addingTimeInterval(120), at: start)
        #expect(try database.nextListenDue(services: [.listenBrainz]) == start.addingTimeInterval(120))
        // Last.fm's copies were never tried: due at once (0).
        #expect(try database.nextListenDue(services: [.listenBrainz, .lastFM]) == Date(timeIntervalSince1970: 0))
        // Sent ones are not waiting.
        let again = try database.claimListens(service: .listenBrainz, limit: 10, at: start.addingTimeInterval(121))
        try database.settleListens(ids: again.map(\.id), sent: true, at: start.addingTimeInterval(121))
        #expect(try database.nextListenDue(services: [.listenBrainz]) == nil)
    }

    @Test func theWindowSleepsUntilDueButNeverSpinsOrSleepsForever() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ListenSender.delay(until: now.addingTimeInterval(120), now: now) == 120)
        #expect(ListenSender.delay(until: now.addingTimeInterval(-50), now: now) == 5)
        #expect(ListenSender.delay(until: now.addingTimeInterval(86_400), now: now) == ListenSender.idleRecheck)
    }
}
