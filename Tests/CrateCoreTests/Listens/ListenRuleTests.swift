import CrateCore
import Foundation
import Testing

@Suite("Half or four minutes: when a play is a listen")
struct ListenRuleTests {
    @Test func thirtySecondsIsTheShortestListen() {
        #expect(ListenRule.thresholdMs(durationMs: 30_000) == 15_000)
        #expect(ListenRule.thresholdMs(durationMs: 29_900) == nil)
        #expect(ListenRule.thresholdMs(durationMs: 29_999) == nil)
        #expect(!ListenRule.isListen(playedMs: 29_900, durationMs: 29_900))
        #expect(ListenRule.isListen(playedMs: 15_000, durationMs: 30_000))
        #expect(!ListenRule.isListen(playedMs: 14_999, durationMs: 30_000))
    }

    @Test func halfIsRoundedUpAndFourMinutesCapIt() {
        #expect(ListenRule.thresholdMs(durationMs: 30_001) == 15_001)
        #expect(ListenRule.thresholdMs(durationMs: 480_000) == 240_000)  // 8 minutes → 4
        #expect(ListenRule.thresholdMs(durationMs: 479_998) == 239_999)
        #expect(ListenRule.thresholdMs(durationMs: 3_600_000) == 240_000)
        #expect(ListenRule.isListen(playedMs: 240_000, durationMs: 480_000))
        #expect(!ListenRule.isListen(playedMs: 239_999, durationMs: 480_000))
        // A length nobody knows: the 4 minutes apply.
        #expect(ListenRule.thresholdMs(durationMs: nil) == 240_000)
    }

    @Test func theTrackerCountsOnlyWhatPlayedAndReportsOnce() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let track = ListenTrack(artist: "A", title: "T", durationMs: 100_000)
        var tracker = ListenTracker()
        #expect(tracker.begin(key: "1", track: track, at: start) == [.playingNow(track)])
        #expect(tracker.msUntilListen(at: start) == 50_000)
        tracker.pause(at: start.addingTimeInterval(20))
        // Paused for an hour: nothing counts.
        #expect(tracker.check(at: start.addingTimeInterval(3_620)) == nil)
        #expect(tracker.msUntilListen(at: start.addingTimeInterval(3_620)) == nil)
        tracker.resume(at: start.addingTimeInterval(3_620))
        #expect(tracker.msUntilListen(at: start.addingTimeInterval(3_620)) == 30_000)
        #expect(tracker.check(at: start.addingTimeInterval(3_649.999)) == nil)
        #expect(tracker.check(at: start.addingTimeInterval(3_650)) == .listen(track, listenedAt: start))
        #expect(tracker.check(at: start.addingTimeInterval(3_700)) == nil)
    }

    @Test func sidesComeFromVinylPositionsElseFromMedia() {
        let vinyl = ["A1", "A2", "B1", "B2", "B3"].enumerated().map { Track(albumID: 1, position: $0.offset + 1, number: $0.element, title: $0.element) }
        #expect(RecordSide.sides(of: vinyl).map(\.name) == ["A", "B"])
        #expect(RecordSide.sides(of: vinyl).map(\.tracks.count) == [2, 3])
        let cds = [Track(albumID: 1, disc: 1, position: 1, number: "1", title: "a"), Track(albumID: 1, disc: 1, position: 2, number: "2", title: "b"),
                   Track(albumID: 1, disc: 2, position: 1, number: "1", title: "c")]
        #expect(RecordSide.sides(of: cds).map(\.name) == ["1", "2"])
    }
}
