import CrateAudio
import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Album gain on the real pipeline: two albums of one tone mastered 10 dB apart, measured with
/// rganalysis, played as one gapless queue through playbin into a file (`PCMCapture`).
@Suite("ReplayGain", .serialized, .tags(.gstreamer, .slow)) @MainActor
struct ReplayGainTests {
    struct Albums {
        let loud: ToneAlbum
        let loudFiles: [String]
        let quietFiles: [String]
        let loudGain: AlbumGain
        let quietGain: AlbumGain
    }

    func albums(_ temp: TemporaryDirectory) throws -> Albums {
        let loud = ToneAlbum(trackSeconds: [1.5, 1.0], gainDb: -1)
        let quiet = ToneAlbum(trackSeconds: [1.5, 1.0], gainDb: -11)
        let loudFiles = try loud.encode(.flac, in: temp.url.path + "/loud")
        let quietFiles = try quiet.encode(.flac, in: temp.url.path + "/quiet")
        let analyzer = try ReplayGainAnalyzer()
        return Albums(loud: loud, loudFiles: loudFiles, quietFiles: quietFiles,
                      loudGain: try analyzer.albumGain(files: loudFiles), quietGain: try analyzer.albumGain(files: quietFiles))
    }

    /// Plays `files` as one queue (each with its stored gain) and returns what came out.
    func play(_ files: [String], gains: [Double?], mode: ReplayGainMode, capture: PCMCapture) async throws -> [Float] {
        try? FileManager.default.removeItem(atPath: capture.path)
        let entries = files.enumerated().map { index, path in
            QueueEntry(gridIndex: 0, albumID: index < 2 ? 1 : 2, track: Track(albumID: 1, position: index + 1, title: "T\(index)"),
                       filePath: path, albumGainDb: gains[index])
        }
        let player = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: capture.sinkDescription, progressIntervalMs: 50)
        defer { player.close() }
        player.replayGain = mode
        try await player.load(entries, startingAt: 0)
        try await player.play()
        #expect(await waitUntil(player.state) { player.state.value.finishedQueue } != nil)
        #expect(player.state.value.problem == nil)
        return try capture.samples()
    }

    /// The RMS level of the first album and of the second, away from their edges.
    func levels(_ played: [Float], firstCount: Int) -> (first: Double, second: Double) {
        let margin = ToneAlbum.rate / 10
        return (PCMCapture.rmsDb(played, margin..<(firstCount - margin)), PCMCapture.rmsDb(played, (firstCount + margin)..<(played.count - margin)))
    }

    @Test("rganalysis measures the 10 dB between the albums; album gain plays them within 1 dB, from stored gains or from tags")
    func albumsLevelled() async throws {
        let temp = try TemporaryDirectory()
        let a = try albums(temp)
        #expect(abs((a.quietGain.gainDb - a.loudGain.gainDb) - 10) < 0.5)
        let capture = PCMCapture(path: temp.url.path + "/played.f32")
        let files = a.loudFiles + a.quietFiles
        let stored: [Double?] = [a.loudGain.gainDb, a.loudGain.gainDb, a.quietGain.gainDb, a.quietGain.gainDb]
        let count = a.loud.signal.count

        let off = levels(try await play(files, gains: stored, mode: .off, capture: capture), firstCount: count)
        #expect(abs((off.first - off.second) - 10) < 0.5)

        let fromLibrary = levels(try await play(files, gains: stored, mode: .album, capture: capture), firstCount: count)
        #expect(abs(fromLibrary.first - fromLibrary.second) < 1)

        for (file, gain) in zip(files, stored) {
            #expect(TagReader.write(["REPLAYGAIN_ALBUM_GAIN": String(format: "%+.2f dB", gain ?? 0)], to: file))
        }
        let fromTags = levels(try await play(files, gains: [nil, nil, nil, nil], mode: .album, capture: capture), firstCount: count)
        #expect(abs(fromTags.first - fromTags.second) < 1)
    }

    @Test("A tagged album's gain does not stay on the untagged album played after it, gapless")
    func gainDoesNotStick() async throws {
        let temp = try TemporaryDirectory()
        let a = try albums(temp)
        let capture = PCMCapture(path: temp.url.path + "/played.f32")
        for file in a.loudFiles {
            #expect(TagReader.write(["REPLAYGAIN_ALBUM_GAIN": String(format: "%+.2f dB", a.loudGain.gainDb)], to: file))
        }
        let played = levels(try await play(a.loudFiles + a.quietFiles, gains: [nil, nil, nil, nil], mode: .album, capture: capture),
                            firstCount: a.loud.signal.count)
        // The quiet album has no tag and no stored gain: it plays as it is (−21 dBFS RMS), not
        // lowered by the loud album's −6.6 dB.
        #expect(abs(played.second - (-21)) < 0.5)
        #expect(abs(played.first - (-11 + a.loudGain.gainDb)) < 0.5)
    }

    @Test("The limiter keeps a gain that would clip under full scale")
    func limiter() async throws {
        let temp = try TemporaryDirectory()
        let loud = ToneAlbum(trackSeconds: [1.0], gainDb: -1)
        let files = try loud.encode(.flac, in: temp.url.path + "/loud")
        let capture = PCMCapture(path: temp.url.path + "/played.f32")
        let played = try await play(files, gains: [12], mode: .album, capture: capture)
        #expect(played.count >= loud.signal.count - 10)
        #expect(PCMCapture.peak(played) < 1)
        // Louder than without gain: the gain was applied, then limited.
        #expect(PCMCapture.rmsDb(played) > -11 + 6)
    }

    @Test("Stored album gains are per album and per folder, replaced on a new measurement, and reach the queue")
    func storedGains() throws {
        let (database, ids) = try PlaybackFixtures.library([PlaybackFixtures.spec(2), PlaybackFixtures.spec(1)])
        #expect(try database.albumGain(albumID: ids[0]) == nil)
        try database.storeAlbumGain(AlbumGain(gainDb: -6.5, peak: 0.9), albumID: ids[0], directory: "/music/a")
        try database.storeAlbumGain(AlbumGain(gainDb: -7.25, peak: 0.95), albumID: ids[0], directory: "/music/a")
        #expect(try database.albumGain(albumID: ids[0], directory: "/music/a") == AlbumGain(gainDb: -7.25, peak: 0.95))
        // Measured on files in another folder: not this album's files any more.
        #expect(try database.albumGain(albumID: ids[0], directory: "/music/b") == nil)
        #expect(try database.albumGain(albumID: ids[1]) == nil)

        var manager = AlbumQueueManager(grid: PlaybackFixtures.grid(2, tapped: 0))
        manager.fill(trackLists: PlaybackFixtures.trackLists([1, 2]), gains: [1: -7.25])
        #expect(manager.entries.map(\.albumGainDb) == [-7.25, -7.25, nil, nil])
    }
}
