import CrateAudio
import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// The real pipeline: files made at test time, played by `playbin` into a `fakesink`.
@Suite("GStreamer player", .serialized, .tags(.gstreamer, .slow)) @MainActor
struct GStreamerPlayerTests {
    /// As fast as the CPU decodes: for order, where timing is not the point.
    static let fastSink = "fakesink sync=false"
    /// In real time: for pause, seek, next and previous.
    static let realTimeSink = "fakesink sync=true"

    struct Rig {
        let fixture: MusicFixture
        let log: PlaybackLog
        let player: GStreamerPlayer
        let store: PlaybackStore
    }

    func rig(_ temp: TemporaryDirectory, sink: String, seconds: Double = 0.3) throws -> Rig {
        let fixture = try MusicFixture(directory: temp.url, seconds: seconds)
        _ = try fixture.scan()
        let log = PlaybackLog(fileURL: nil)
        let player = try GStreamerPlayer(log: log, sinkDescription: sink, progressIntervalMs: 50)
        let store = PlaybackStore(database: fixture.database, player: player, albumFiles: .musicFolder(fixture.database))
        return Rig(fixture: fixture, log: log, player: player, store: store)
    }

    func waitUntilDone(_ rig: Rig) async -> Bool {
        await PlaybackFixtures.waitUntilDone(rig.store, player: rig.player)
    }

    func played(_ log: PlaybackLog) throws -> [String] { try PlaybackFixtures.played(log) }

    @Test("Albums play one after another, disc by disc, track by track, every line with its file URI")
    func orderAcrossAlbumsAndDiscs() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: Self.fastSink)
        defer { rig.player.close() }
        let f = rig.fixture
        let grid = GridContext(albumIDs: [f.threeSongs, f.twoDiscs, f.absent, f.untagged], tappedIndex: 0)
        await rig.store.play(albumID: f.threeSongs, grid: grid)
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 3", "D1T1", "D1T2", "D2T1", "D2T2", "First", "Second"])
        let lines = try PlaybackFixtures.decode(rig.log.lines)
        #expect(lines.filter { $0.state == "playing" }.allSatisfy { $0.uri?.hasPrefix("file://" + temp.url.path) == true })
        // The album with no files was skipped with the words the window shows.
        #expect(rig.store.state.value.skippedAlbumIDs.isEmpty || rig.store.state.value.skippedAlbumIDs == [f.absent])
        #expect(lines.last?.reason == "end_of_queue")
    }

    @Test("An album that is not in the music folder says so and plays nothing")
    func notInMusicFolder() async throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: Self.fastSink)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.absent)
        #expect(rig.store.state.value.message == "Not in your music folder")
        #expect(rig.player.state.value.status == .stopped)
        #expect(!rig.log.lines.contains { $0.contains("\"state\":\"playing\"") })
    }

    @Test("Pause, seek, next and previous on the real pipeline")
    func transport() async throws {
        let temp = try TemporaryDirectory()
        // 20 s tracks: after the seek to 1.5 s the track still has 18.5 s to go, so a busy
        // machine cannot let it end before the checks below (with 4 s, a main actor starved
        // under stress-ng saw Song 1 end before `next`).
        let rig = try rig(temp, sink: Self.realTimeSink, seconds: 20)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        #expect(await waitUntil(rig.player.state) { rig.player.state.value.positionMs >= 300 } != nil)
        await rig.store.togglePlay()
        #expect(rig.player.state.value.status == .paused)
        let paused = rig.player.state.value.positionMs
        try await Task.sleep(for: .milliseconds(300))
        // Paused means paused: the pipeline's position does not move.
        #expect(abs((rig.player.queryPositionMs() ?? 0) - paused) < 100)
        await rig.store.togglePlay()
        await rig.store.seek(toMs: 1_500)
        #expect(await waitFor { (rig.player.queryPositionMs() ?? 0) >= 1_500 } != nil)
        await rig.store.next()
        #expect(rig.player.state.value.currentIndex == 1)
        #expect(await waitUntil(rig.store.state) { rig.store.state.value.nowPlayingTrack?.title == "Song 2" } != nil)
        await rig.store.previous()
        #expect(rig.player.state.value.currentIndex == 0)
        #expect(rig.player.state.value.status == .playing)
        await rig.store.stop()
        #expect(rig.player.state.value.status == .stopped)
        #expect(try played(rig.log) == ["Song 1", "Song 2", "Song 1"])
    }

    @Test("A file deleted while the album plays is skipped, with a message")
    func fileDeletedWhilePlaying() async throws {
        let temp = try TemporaryDirectory()
        // 6 s tracks: the file must be gone before Song 1 nears its end and Song 2 is queued,
        // which a loaded machine reached with shorter ones before `play` had returned.
        let rig = try rig(temp, sink: Self.realTimeSink, seconds: 6)
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        #expect(rig.player.state.value.status == .playing)
        try FileManager.default.removeItem(atPath: rig.fixture.root + "/Tagged Artist/Three Songs/02.flac")
        #expect(await waitUntilDone(rig))
        #expect(try played(rig.log) == ["Song 1", "Song 3"])
        let skipped = try PlaybackFixtures.decode(rig.log.lines).filter { $0.state == "skipped" }
        #expect(skipped.map(\.track?.title) == ["Song 2"])
        #expect(rig.store.state.value.message?.contains("02.flac is no longer in your music folder") == true)
    }

    @Test("A sink that cannot open (no sound output) stops with a message instead of hanging")
    func noAudioOutput() async throws {
        try #require(GStreamerRuntime.hasElement("pulsesink"), "pulsesink is part of gstreamer1.0-pulseaudio")
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, sink: "pulsesink server=/nonexistent/socket")
        defer { rig.player.close() }
        await rig.store.play(albumID: rig.fixture.threeSongs)
        #expect(await waitUntil(rig.player.state) { rig.player.state.value.status == .stopped } != nil)
        #expect(rig.store.state.value.message == AudioPlaybackError.noAudioOutput.message)
    }

    @Test("A CRATE_AUDIO_SINK that is not a sink is a clear error")
    func invalidSink() throws {
        #expect(throws: AudioPlaybackError.invalidSink("nosuchelement ! !")) {
            _ = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: "nosuchelement ! !")
        }
    }

    @Test("A missing decoder names the package: AAC needs gstreamer1.0-libav")
    func missingPluginMessage() {
        let aac = AudioPlaybackError.missingPlugin(forCaps: "audio/mpeg, mpegversion=(int)4, stream-format=(string)raw")
        #expect(aac.message == "Install gstreamer1.0-libav to play AAC files.")
        #expect(AudioPlaybackError.missingPlugin(forCaps: "audio/mpeg, mpegversion=(int)1, layer=(int)3").message.contains("MP3"))
    }
}
