import Foundation
import Testing
@testable import CrateCore

@Suite("LogPlayer") @MainActor
struct LogPlayerTests {
    typealias F = PlaybackFixtures

    private let clock = ManualPlaybackClock(startDate: Date(timeIntervalSince1970: 1_800_000_000))

    private func entries(_ titles: [String], ms: Int = 1_000, albumID: Int64 = 1) -> [QueueEntry] {
        F.tracks(titles, ms: ms, albumID: albumID).map { QueueEntry(gridIndex: 0, albumID: albumID, track: $0) }
    }

    @Test func playsAFortyMinuteAlbumThroughInOrderOnTheManualClock() async throws {
        let log = PlaybackLog(fileURL: nil)
        let player = LogPlayer(clock: clock, log: log)
        let queue = entries((1...10).map { "Track \($0)" }, ms: 240_000)
        try await player.load(queue, startingAt: 0)
        try await player.play()
        clock.advance(byMs: 2_400_000)
        #expect(player.state.value.finishedQueue)
        #expect(player.state.value.status == .stopped)
        #expect(try F.playedTracks(log.lines) == (1...10).map { "1:1-\($0)" })
        #expect(clock.nowMs == 2_400_000)
    }

    @Test func logLinesAreJSONWithTimeCommandStateAlbumAndTrack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crate-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nested/playback.log") // directories are created
        let log = PlaybackLog(fileURL: url)
        let player = LogPlayer(clock: clock, log: log)
        try await player.load(entries(["Intro"], ms: 5_000, albumID: 9), startingAt: 0)
        try await player.play()
        clock.advance(byMs: 2_000)
        await player.pause()

        let written = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written == log.lines)
        let lines = try F.decode(written)
        #expect(lines.map { $0.command ?? "state:" + ($0.state ?? "?") } == ["load", "state:stopped", "play", "state:playing", "pause", "state:paused"])
        let pause = lines[4]
        #expect(pause.album_id == 9)
        #expect(pause.entry == 0)
        #expect(pause.elapsed_ms == 2_000)
        #expect(pause.position_ms == 2_000)
        #expect(pause.time == "2027-01-15T08:00:02.000Z")
        #expect(pause.track == .init(disc: 1, position: 1, title: "Intro", duration_ms: 5_000))
        // One compact object per line, keys sorted so logs diff cleanly.
        #expect(written[0].hasPrefix("{\"album_id\":9,\"command\":\"load\",\"elapsed_ms\":0,"))
    }

    @Test func unwritableLogPathDoesNotStopPlayback() async throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("crate-blocker-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let log = PlaybackLog(fileURL: blocker.appendingPathComponent("playback.log"))
        let player = LogPlayer(clock: clock, log: log)
        try await player.load(entries(["A", "B"]), startingAt: 0)
        try await player.play()
        clock.advance(byMs: 2_000)
        #expect(log.writeError != nil)
        #expect(player.state.value.finishedQueue)
        #expect(log.lines.count > 4) // still recorded in memory
    }

    @Test func pauseKeepsPositionAndResumeContinuesFromIt() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        try await player.load(entries(["A", "B"], ms: 10_000), startingAt: 0)
        try await player.play()
        clock.advance(byMs: 4_000)
        await player.pause()
        clock.advance(byMs: 60_000) // time passes, the track does not
        #expect(player.state.value.positionMs == 4_000)
        try await player.play()
        clock.advance(byMs: 6_000)
        #expect(player.state.value.currentIndex == 1)
    }

    @Test func seekMovesWithinTheTrackAndClamps() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        try await player.load(entries(["A", "B"], ms: 10_000), startingAt: 0)
        try await player.play()
        await player.seek(toMs: 9_000)
        clock.advance(byMs: 1_000)
        #expect(player.state.value.currentIndex == 1)
        await player.seek(toMs: -50)
        #expect(player.state.value.positionMs == 0)
        await player.seek(toMs: 99_000)
        #expect(player.state.value.positionMs == 10_000)
    }

    @Test func previousGoesBackEarlyInATrackAndRestartsLaterOn() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        try await player.load(entries(["A", "B"], ms: 10_000), startingAt: 1)
        try await player.play()
        clock.advance(byMs: 5_000)
        await player.previous()
        #expect(player.state.value.currentIndex == 1) // restarted
        #expect(player.state.value.positionMs == 0)
        await player.previous()
        #expect(player.state.value.currentIndex == 0)
        await player.previous()
        #expect(player.state.value.currentIndex == 0) // nothing before the first track
    }

    @Test func nextPastTheLastEntryFinishesTheQueue() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        try await player.load(entries(["A"]), startingAt: 0)
        try await player.play()
        await player.next()
        #expect(player.state.value.finishedQueue)
        #expect(player.state.value.currentIndex == nil)
    }

    @Test func loadRejectsAnEmptyQueueOrAnIndexOutsideIt() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        await #expect(throws: PlaybackError.nothingToPlay) { try await player.load([], startingAt: 0) }
        await #expect(throws: PlaybackError.entryOutOfRange(3)) { try await player.load(entries(["A"]), startingAt: 3) }
        await #expect(throws: PlaybackError.nothingToPlay) { try await player.play() }
    }

    /// docs/decisions/0001-albums-play-whole-in-order.md: no shuffle or repeat. The state a player exposes has nowhere to hold either, and the
    /// only statuses are stopped, playing and paused.
    @Test func playerStateHasNoShuffleOrRepeat() {
        let labels = Mirror(reflecting: PlayerState()).children.compactMap(\.label).map { $0.lowercased() }
        #expect(!labels.contains { $0.contains("shuffle") || $0.contains("repeat") })
        let statuses: [PlayerState.Status] = [.stopped, .playing, .paused]
        #expect(statuses.map(\.rawValue) == ["stopped", "playing", "paused"])
    }

    @Test func tracksWithoutDurationStillTakeTime() async throws {
        let player = LogPlayer(clock: clock, log: PlaybackLog(fileURL: nil))
        let track = Track(albumID: 1, position: 1, title: "Unknown length")
        try await player.load([QueueEntry(gridIndex: 0, albumID: 1, track: track)], startingAt: 0)
        try await player.play()
        clock.advance(byMs: LogPlayer.fallbackDurationMs - 1)
        #expect(player.state.value.status == .playing)
        clock.advance(byMs: 1)
        #expect(player.state.value.finishedQueue)
    }
}
