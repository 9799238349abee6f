import CrateAudio
import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Gapless on lossy files, sample by sample (docs/decisions/0046-replaygain-and-lossy-gapless.md):
/// one continuous signal cut into tracks, encoded with Debian's encoders (scripts/install-deps),
/// played through playbin into a file; every join must give the signal back.
@Suite("Gapless on lossy files", .serialized, .tags(.gstreamer, .slow)) @MainActor
struct LossyGaplessTests {
    func seams(_ format: ToneAlbum.Format) async throws -> [PCMCapture.Seam] {
        let temp = try TemporaryDirectory()
        let album = ToneAlbum(trackSeconds: [1.2071, 0.9133, 1.0])
        let files = try album.encode(format, in: temp.url.path + "/album")
        let capture = PCMCapture(path: temp.url.path + "/played.f32")
        let entries = files.enumerated().map { index, path in
            QueueEntry(gridIndex: 0, albumID: 1, track: Track(albumID: 1, position: index + 1, title: "T\(index + 1)"), filePath: path)
        }
        let player = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: capture.sinkDescription, progressIntervalMs: 50)
        defer { player.close() }
        try await player.load(entries, startingAt: 0)
        try await player.play()
        #expect(await waitUntil(player.state) { player.state.value.finishedQueue } != nil)
        let result = PCMCapture.seams(played: try capture.samples(), album: album)
        #expect(result.start == 0)
        return result.seams
    }

    @Test("MP3 from LAME joins sample-exact", .enabled(if: ToneAlbum.hasTool("lame")))
    func lame() async throws {
        #expect(try await seams(.mp3Lame).map(\.samples) == [0, 0])
    }

    @Test("MP3 from ffmpeg joins within a frame's rounding: its Lavc LAME tag is read", .enabled(if: ToneAlbum.hasTool("ffmpeg")))
    func ffmpegMP3() async throws {
        // Without the fix each join gains the whole delay and padding (over 1 000 samples).
        #expect(try await seams(.mp3FFmpeg).allSatisfy { abs($0.samples) <= 48 && $0.correlation > 0.99 })
    }

    @Test("Opus and Vorbis join within a sample", .enabled(if: ToneAlbum.hasTool("opusenc") && ToneAlbum.hasTool("oggenc")))
    func ogg() async throws {
        #expect(try await seams(.opus).allSatisfy { abs($0.samples) <= 1 })
        #expect(try await seams(.vorbis).allSatisfy { abs($0.samples) <= 1 })
    }
}
