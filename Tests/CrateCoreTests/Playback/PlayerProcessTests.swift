@testable import CrateAudio
import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// The player in a process of its own (`crate-player`), as the window and `crate play` use it:
/// the real pipeline into a `fakesink`, and the process killed on purpose.
@Suite("Player process", .serialized, .tags(.gstreamer, .process, .slow)) @MainActor
struct PlayerProcessTests {
    struct Rig {
        let fixture: MusicFixture
        let log: PlaybackLog
        let player: PlayerProcess
        let store: PlaybackStore
    }

    /// `answerLimitMs` stays well above a first load's time (GStreamer starts in the new process).
    func rig(_ temp: TemporaryDirectory, sink: String, seconds: Double = 0.3, answerLimitMs: Int = 15_000, stallLimitMs: Int = 10_000) throws -> Rig {
        let fixture = try MusicFixture(directory: temp.url, seconds: seconds)
        _ = try fixture.scan()
        let log = PlaybackLog(fileURL: nil)
        let player = PlayerProcess(log: log, executable: try PlayerProcess.locate(), sinkDescription: sink, progressIntervalMs: 50,
                                   answerLimitMs: answerLimitMs, stallLimitMs: stallLimitMs)
        let store = PlaybackStore(database: fixture.database, player: player, albumFiles: .musicFolder(fixture.database))
        return Rig(fixture: fixture, log: log, player: player, store: store)
    }

    func waitUntilDone(_ rig: Rig) async -> Bool {
        await PlaybackFixtures.waitUntilDone(rig.store, player: rig.player)
    }

    func played(_ log: PlaybackLog) throws -> [String] { try PlaybackFixtures.played(log) }

    /// Waits until every thread of `pid` is stopped (state T in /proc), or the process is gone
    /// (a watchdog may kill it first), up to a hang ceiling.
    static func waitUntilStopped(_ pid: Int32) async -> Bool {
        let tasks = "/proc/\(pid)/task"
        for _ in 0..<12_000 {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return true }
            let states = threads.compactMap { thread -> Character? in
                guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                return stat[stat.index(after: close)...].dropFirst().first
            }
            if !states.isEmpty, states.count == threads.count, states.allSatisfy({ $0 == "T" || $0 == "t" }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Waits until `title` plays at `positionMs` or later, then kills the player process.
    func kill(_ rig: Rig, during title: String, afterMs positionMs: Int = 300, restarts: Bool = true) async throws {
        // Polled, not awaited (here and for every position below): killing the player in the
        // very main-actor turn that delivers a position report, before the reports queued behind
        // it, once made the restarted player resume from an older position (killedOnce). Polling
        // acts a turn later, as these tests always did.
        let playing = await waitFor {
            let state = rig.player.state.value
            return state.status == .playing && state.currentEntry?.track.title == title && state.positionMs >= positionMs
        }
        try #require(playing != nil, "\(title) never played past \(positionMs) ms: \(rig.player.state.value)")
        let pid = try #require(rig.player.processID)
        #expect(Glibc.kill(pid, SIGKILL) == 0)
        // Until the death is seen, the old process is still the one on record; and until the new
        // one has restored the queue, the state shown is the old one's. So wait for the log to
        // say the new player plays (on a busy machine a restore takes a while, and killing the
        // player before it answered is another story: a player that cannot start).
        guard restarts else { return }
        _ = await waitFor {
            guard rig.player.processID != pid, rig.player.state.value.status == .playing,
                  let lines = try? PlaybackFixtures.decode(rig.log.lines) else { return false }
            return lines.reversed().prefix { $0.reason != "player_ended" }.contains { $0.state == "playing" }
        }
    }

    @Test("Albums play in order through the player process, every line in this side's log")
    func order() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true")
        defer { rig.player.close() }
        let f = rig.fixture
        await rig.store.play(albumID: f.threeSongs, grid: GridContext(albumIDs: [f.threeSongs, f.twoDiscs], tappedIndex: 0))
        #expect(rig.player.processID != nil)
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 3", "D1T1", "D1T2", "D2T1", "D2T2"])
        let lines = try PlaybackFixtures.decode(rig.log.lines)
        #expect(lines.filter { $0.state == "playing" }.allSatisfy { $0.uri?.hasPrefix("file://" + temp.url.path) == true })
        #expect(lines.last?.reason == "end_of_queue")
        #expect(rig.player.restarts == 0)
    }

    @Test("Pause, seek, next and previous answer after the player has done them")
    func transport() async throws {
        let temp = try TemporaryDirectory()
        // 20 s tracks: a busy machine cannot bring Song 1 near its end (where the next track is
        // queued for gapless play) before the seek to 1.5 s and `next` (5 s did not hold under
        // stress-ng).
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 20)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        #expect(rig.player.state.value.status == .playing)
        #expect(await waitFor { rig.player.state.value.positionMs >= 300 } != nil)
        await rig.player.pause()
        #expect(rig.player.state.value.status == .paused)
        await rig.player.seek(toMs: 1_500)
        #expect(rig.player.state.value.positionMs >= 1_400)
        await rig.player.next()
        #expect(rig.player.state.value.currentEntry?.track.title == "Song 2")
        await rig.player.previous()
        #expect(rig.player.state.value.currentEntry?.track.title == "Song 1")
        await rig.store.stop()
        #expect(rig.player.state.value.status == .stopped)
    }

    @Test("A player killed mid-track is started again and carries on from the same track and position")
    func killedOnce() async throws {
        let temp = try TemporaryDirectory()
        // 6 s tracks (here and in the other kill tests): on a loaded machine the position reports
        // reach this side late, and with 1.5 s tracks the process was already in Song 3 when a
        // report of Song 2 at 0.5 s arrived.
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 6)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        try await kill(rig, during: "Song 2", afterMs: 500)
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 3"])
        #expect(rig.player.restarts == 1)
        let lines = try PlaybackFixtures.decode(rig.log.lines)
        let death = try #require(lines.first { $0.reason == "player_ended" })
        #expect(death.track?.title == "Song 2")
        #expect(death.message?.contains("Crate's player stopped (Killed) while playing") == true)
        #expect(death.message?.contains("02.flac") == true)
        // Song 2 went on from where it was, not from its start.
        let resumed = try #require(lines.drop { $0.reason != "player_ended" }.first { $0.state == "playing" })
        #expect(resumed.track?.title == "Song 2")
        #expect((resumed.position_ms ?? 0) >= 400, "resumed at \(resumed.position_ms ?? -1) ms")
        #expect(rig.store.state.value.message?.contains("it was restarted") == true)
    }

    @Test("A track the player dies on twice is skipped, with the file named")
    func killedTwiceOnOneTrack() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 6)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        try await kill(rig, during: "Song 2", afterMs: 200)
        try await kill(rig, during: "Song 2", afterMs: 400)
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 3"])
        let deaths = try PlaybackFixtures.decode(rig.log.lines).filter { $0.reason == "player_ended" }
        #expect(deaths.count == 2)
        #expect(deaths.last?.message == PlayerProcessError.stoppedTwice(path: rig.fixture.root + "/Tagged Artist/Three Songs/02.flac").message)
    }

    @Test("A player that dies three times within a minute stops playback and says so; play starts a new one")
    func keepsDying() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 6)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        try await kill(rig, during: "Song 1", afterMs: 200)
        try await kill(rig, during: "Song 1", afterMs: 400)
        try await kill(rig, during: "Song 2", afterMs: 200, restarts: false)
        let stopped = await waitUntil(rig.player.state) { rig.player.state.value.status == .stopped }
        #expect(stopped != nil)
        #expect(rig.player.state.value.problem == PlayerProcessError.keepsStopping(count: 3).message)
        #expect(rig.player.state.value.currentEntry?.track.title == "Song 2")
        #expect(rig.player.processID == nil)
        // Play again: a new player, the same queue, from the same track.
        try await rig.player.play()
        #expect(rig.player.state.value.status == .playing)
        #expect(rig.player.state.value.currentEntry?.track.title == "Song 2")
        #expect(rig.player.processID != nil)
    }

    @Test("A player that hangs while a track plays (SIGSTOP) is killed and started again where it was")
    func hungWhilePlaying() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 2, stallLimitMs: 1_000)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        let playing = await waitFor { rig.player.state.value.positionMs >= 500 }
        try #require(playing != nil)
        let pid = try #require(rig.player.processID)
        #expect(Glibc.kill(pid, SIGSTOP) == 0)
        // kill() returns before every thread has stopped: until then the player can still read
        // and answer the next command (seen on a busy machine), so wait until it is stopped.
        #expect(await Self.waitUntilStopped(pid))
        #expect(await waitFor { rig.player.processID != pid && rig.player.state.value.status == .playing } != nil)
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 3"])
        let death = try #require(try PlaybackFixtures.decode(rig.log.lines).first { $0.reason == "player_ended" })
        #expect(death.message?.contains("Crate's player stopped (stuck) while playing") == true)
        #expect(death.track?.title == "Song 1")
    }

    @Test("A command a hung player does not answer returns once a new player has taken over")
    func hungCommand() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 2, answerLimitMs: 2_500)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        _ = await waitFor { rig.player.state.value.positionMs >= 500 }
        await rig.player.pause()
        let pid = try #require(rig.player.processID)
        #expect(Glibc.kill(pid, SIGSTOP) == 0)
        // kill() returns before every thread has stopped: until then the player can still read
        // and answer the next command (seen on a busy machine), so wait until it is stopped.
        #expect(await Self.waitUntilStopped(pid))
        let started = ContinuousClock.now
        await rig.player.seek(toMs: 1_500)
        // Not a timing claim (the answer limit is 2.5 s, then a new player starts): a command
        // that waited for the hung player would never return, and this ceiling says so.
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(rig.player.processID != pid && rig.player.processID != nil)
        let death = try #require(try PlaybackFixtures.decode(rig.log.lines).first { $0.reason == "player_ended" })
        #expect(death.message?.contains("Crate's player stopped (not answering) while playing") == true)
        // The new player holds the queue at the same track, and the seek the old one never
        // answered was made again there.
        #expect(rig.player.state.value.currentEntry?.track.title == "Song 1")
        #expect(rig.player.state.value.positionMs >= 1_400, "at \(rig.player.state.value.positionMs) ms")
        try await rig.player.play()
        #expect(rig.player.state.value.status == .playing)
    }

    @Test("A player that stopped reading never blocks the caller: a load larger than the pipe returns, and the new player has the new queue")
    func hungWhileLoading() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 2, answerLimitMs: 2_500)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        _ = await waitFor { rig.player.state.value.positionMs >= 300 }
        await rig.player.pause()
        let pid = try #require(rig.player.processID)
        #expect(Glibc.kill(pid, SIGSTOP) == 0)
        // kill() returns before every thread has stopped: until then the player can still read
        // and answer the next command (seen on a busy machine), so wait until it is stopped.
        #expect(await Self.waitUntilStopped(pid))
        // About 400 KB of requests: more than a pipe holds, for a player that reads nothing.
        let file = rig.fixture.root + "/Tagged Artist/Three Songs/03.flac"
        let entries = (0..<2_000).map { n in
            QueueEntry(gridIndex: n, albumID: 1, track: Track(albumID: 1, position: 1, title: "Entry \(n) " + String(repeating: "x", count: 100)), filePath: file)
        }
        let started = ContinuousClock.now
        try await rig.player.load(entries, startingAt: 1_500)
        // A hang ceiling, not a timing claim: a load blocked on the full pipe would never return.
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(rig.player.processID != pid && rig.player.processID != nil)
        #expect(rig.player.state.value.currentIndex == 1_500)
        #expect(rig.player.state.value.queueCount == 2_000)
        try await rig.player.play()
        #expect(rig.player.state.value.status == .playing)
        #expect(rig.player.state.value.currentEntry?.track.title.hasPrefix("Entry 1500 ") == true)
        #expect(rig.player.state.value.positionMs < 1_000, "the new queue starts at its track's start")
    }

    @Test("A replacement player that cannot start stops playback with a message, not a loop")
    func replacementCannotStart() async throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url, seconds: 6)
        _ = try fixture.scan()
        // The first start runs the real player; every later one exits at once with status 3.
        let marker = temp.url.appendingPathComponent("started").path
        let script = temp.url.appendingPathComponent("player.sh").path
        try "#!/bin/sh\nif [ -e '\(marker)' ]; then exit 3; fi\n: > '\(marker)'\nexec '\(try PlayerProcess.locate())' \"$@\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let log = PlaybackLog(fileURL: nil)
        let player = PlayerProcess(log: log, executable: script, sinkDescription: "fakesink sync=true", progressIntervalMs: 50)
        defer { player.close() }
        let store = PlaybackStore(database: fixture.database, player: player, albumFiles: .musicFolder(fixture.database))
        await store.play(albumID: fixture.threeSongs)
        _ = await waitFor { player.state.value.positionMs >= 300 }
        let pid = try #require(player.processID)
        #expect(Glibc.kill(pid, SIGKILL) == 0)
        #expect(await waitUntil(player.state) { player.state.value.status == .stopped } != nil)
        #expect(player.state.value.problem == PlayerProcessError.endedAtStart(reason: "exit status 3").message)
        #expect(player.processID == nil)
        #expect(player.state.value.currentEntry?.track.title == "Song 1")
    }

    @Test("A new album chosen while a dead player is being replaced plays from its start, not at the old position")
    func newAlbumDuringRestore() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "fakesink sync=true", seconds: 6)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        _ = await waitFor { rig.player.state.value.currentEntry?.track.title == "Song 1" && rig.player.state.value.positionMs >= 1_200 }
        let pid = try #require(rig.player.processID)
        for delayMs in [0, 60] {
            if delayMs == 0 { #expect(Glibc.kill(pid, SIGKILL) == 0) }
            try await Task.sleep(for: .milliseconds(delayMs))
        }
        // Chosen just after the player died: before or while its restore runs.
        await rig.store.play(albumID: rig.fixture.twoDiscs)
        #expect(rig.player.state.value.status == .playing)
        #expect(rig.player.state.value.currentEntry?.track.title == "D1T1")
        #expect(rig.player.state.value.positionMs < 1_000, "at \(rig.player.state.value.positionMs) ms")
        #expect(rig.player.processID != pid)
    }

    @Test("Resuming after a pause longer than the stall limit is not taken for a hung player")
    func longPauseIsNotAStall() async throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url, seconds: 3)
        _ = try fixture.scan()
        let log = PlaybackLog(fileURL: nil)
        // Progress lines 600 ms apart, a 1.5 s stall limit: the first line after resuming comes
        // late, and the pause must not count as time without progress.
        let player = PlayerProcess(log: log, executable: try PlayerProcess.locate(), sinkDescription: "fakesink sync=true",
                                   progressIntervalMs: 600, stallLimitMs: 1_500)
        defer { player.close() }
        let store = PlaybackStore(database: fixture.database, player: player, albumFiles: .musicFolder(fixture.database))
        await store.play(albumID: fixture.threeSongs)
        _ = await waitFor { player.state.value.positionMs >= 500 }
        await player.pause()
        try await Task.sleep(for: .milliseconds(2_000))
        try await player.play()
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(player.restarts == 0)
        #expect(!log.lines.contains { $0.contains("player_ended") })
    }

    @Test("A request the player cannot read is answered with an error, so the player is not taken for a hung one")
    func unreadableRequestIsAnswered() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try PlayerProcess.locate())
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        input.fileHandleForWriting.write(Data("{\"id\":7,\"command\":{\"dance\":{}}}\n".utf8))
        var received = Data()
        // `availableData` returns what has arrived (reading a count waits for all of it).
        while !received.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        let line = received.prefix { $0 != 0x0A }
        let report = try PlayerWire.decode(PlayerWire.Report.self, from: Data(line))
        guard case .reply(let id, let failure) = report else { Issue.record("not a reply: \(report)"); return }
        #expect(id == 7)
        #expect(failure != nil)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the player ends when its input closes")
    }

    @Test("A player that cannot start, or dies before answering, is a clear error, never a hang")
    func cannotStart() async throws {
        let entry = QueueEntry(gridIndex: 0, albumID: 1, track: Track(albumID: 1, position: 1, title: "One"), filePath: "/nonexistent/01.flac")
        let missing = PlayerProcess(log: PlaybackLog(fileURL: nil), executable: "/nonexistent/crate-player")
        await #expect(throws: PlayerProcessError.couldNotStart(path: "/nonexistent/crate-player", errno: ENOENT)) {
            try await missing.load([entry], startingAt: 0)
        }
        let dies = PlayerProcess(log: PlaybackLog(fileURL: nil), executable: "/bin/false")
        await #expect(throws: PlayerProcessError.endedAtStart(reason: "exit status 1")) {
            try await dies.load([entry], startingAt: 0)
        }
        #expect(throws: PlayerProcessError.notInstalled(searched: ["/nonexistent/crate-player"])) {
            try PlayerProcess.locate(environment: ["CRATE_PLAYER_PATH": "/nonexistent/crate-player"])
        }
        #expect(PlayerProcessError.endedAtStart(reason: "exit status 1").message.contains("exit status 1"))
    }

    @Test("A corrupt file (garbage) and a truncated one are skipped or cut short; the next album plays; the test process is never at risk")
    func damagedFiles() async throws {
        let temp = try TemporaryDirectory()
        // In real time: decoded as fast as the CPU goes, a 0.3 s track can end before its
        // "playing" line is observed, and the order check below would miss it under load.
        let rig = try rig(temp, sink: "fakesink sync=true")
        defer { rig.player.close() }
        let dir = rig.fixture.root + "/Tagged Artist/Three Songs"
        // Indexed as good, damaged afterwards: what a disk error or a half-finished copy does.
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: dir + "/02.flac"))
        let third = try Data(contentsOf: URL(fileURLWithPath: dir + "/03.flac"))
        try third.prefix(third.count / 2).write(to: URL(fileURLWithPath: dir + "/03.flac"))
        await rig.store.play(albumID: rig.fixture.threeSongs, grid: GridContext(albumIDs: [rig.fixture.threeSongs, rig.fixture.untagged], tappedIndex: 0))
        #expect(await waitUntilDone(rig))
        let lines = try PlaybackFixtures.decode(rig.log.lines)
        // GStreamer reports the garbage file (the usual case), or playbin aborts in the player
        // process on one of the two (docs/reliability.md #23) and a new player carries on.
        let errors = lines.filter { $0.state == "error" }
        #expect(errors.contains { $0.track?.title == "Song 2" && $0.message?.contains("damaged or not audio") == true }
                    || errors.contains { $0.reason == "player_ended" })
        // The next album still played, from its first track: an error the damaged files posted
        // late (typefind posts two) or one from the truncated file after the next was queued
        // is theirs, never the next track's.
        let titles = try played(rig.log)
        #expect(titles.suffix(2) == ["First", "Second"], "played: \(titles); errors: \(errors.map { ($0.track?.title ?? "-") + ": " + ($0.message ?? "") })")
        // A player's end is charged to whatever it was playing then (the next album's first
        // track when playbin aborts in its switch to it); GStreamer's errors only to the damaged files.
        let fileErrors = errors.filter { $0.reason != "player_ended" }
        #expect(fileErrors.allSatisfy { $0.track?.title == "Song 2" || $0.track?.title == "Song 3" }, "errors: \(errors.map { $0.track?.title ?? "-" })")
    }
}

/// The wire between the two processes, without a process.
@Suite("Player wire")
struct PlayerWireTests {
    @Test("Requests and reports read back as they were written, one line each")
    func roundTrip() throws {
        let entry = QueueEntry(gridIndex: 2, albumID: 7, track: Track(albumID: 7, disc: 2, position: 3, number: "B3", title: "Line\nbreak", durationMs: 1_000),
                               filePath: "/music/A/\u{1}odd.flac")
        let request = PlayerWire.Request(id: 4, command: .load(entries: [PlayerWire.Entry(entry)], index: 0))
        let line = PlayerWire.encode(request)
        #expect(line.filter { $0 == 0x0A }.count == 1 && line.last == 0x0A)
        let back = try PlayerWire.decode(PlayerWire.Request.self, from: line.dropLast())
        #expect(back == request)
        guard case .load(let entries, _) = back.command else { Issue.record("not a load"); return }
        #expect(entries[0].queueEntry == entry)

        for failure: PlayerWire.Failure in [.playback(.entryOutOfRange(3)), .audio(.invalidSink("x ! y")), .plugin(.notInstalled(.gstreamer, searched: ["/a"])), .other(message: "m")] {
            let report = PlayerWire.Report.reply(id: 1, failure: failure)
            #expect(try PlayerWire.decode(PlayerWire.Report.self, from: PlayerWire.encode(report)) == report)
        }
        #expect(PlayerWire.Failure(AudioPlaybackError.noAudioOutput).error as? AudioPlaybackError == .noAudioOutput)
        #expect(PlayerWire.Failure(CocoaError(.fileNoSuchFile)) == .other(message: UserMessage.text(for: CocoaError(.fileNoSuchFile))))
    }

    @Test("A line that is not a request is an error to decode, not a crash")
    func garbage() {
        for text in ["", "{", "{\"id\":1}", "{\"id\":1,\"command\":{\"dance\":{}}}", "\u{FF}\u{FE}"] {
            #expect(throws: (any Error).self) { try PlayerWire.decode(PlayerWire.Request.self, from: Data(text.utf8)) }
        }
    }
}
