import CrateAudio
import CrateCore
import CrateTestSupport
import Foundation

/// Two albums of the same tone mastered 10 dB apart (peaks at −1 and −11 dBFS), FLAC, tagged
/// with the album gain GStreamer's `rganalysis` measures for each (`ReplayGainAnalyzer`), then
/// played as one queue through the real player into a file (`PCMCapture`): the RMS level of each
/// album with ReplayGain off and on, and the highest sample (the limiter's job). Then the same
/// albums untagged, with the analysed gain handed over as the library's stored gain.
/// docs/performance.md, "ReplayGain".
@MainActor
func benchReplayGain() async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-replaygain").path
    try? FileManager.default.removeItem(atPath: base)
    let seconds = [3.0, 2.5]
    let loud = ToneAlbum(trackSeconds: seconds, gainDb: -1)
    let quiet = ToneAlbum(trackSeconds: seconds, gainDb: -11)
    let loudFiles = try loud.encode(.flac, in: base + "/loud")
    let quietFiles = try quiet.encode(.flac, in: base + "/quiet")
    let analyzer = try ReplayGainAnalyzer()
    let loudGain = try analyzer.albumGain(files: loudFiles)
    let quietGain = try analyzer.albumGain(files: quietFiles)
    print(String(format: "rganalysis: loud album gain %+.2f dB (peak %.3f), quiet album gain %+.2f dB (peak %.3f)",
                 loudGain.gainDb, loudGain.peak, quietGain.gainDb, quietGain.peak))

    let loudCount = loud.signal.count
    func report(_ label: String, _ played: [Float]) {
        // Each album's level away from its edges.
        let margin = ToneAlbum.rate / 10
        let a = PCMCapture.rmsDb(played, margin..<(loudCount - margin))
        let b = PCMCapture.rmsDb(played, (loudCount + margin)..<(played.count - margin))
        print(String(format: "%-34@ loud %6.2f dBFS  quiet %6.2f dBFS  difference %5.2f dB  highest sample %.4f (%+.2f dBFS)",
                     label, a, b, a - b, PCMCapture.peak(played), 20 * log10(Double(PCMCapture.peak(played)))))
    }
    let capture = PCMCapture(path: base + "/played.f32")
    let untagged = loudFiles + quietFiles
    report("off", try await playCaptured(untagged, capture: capture) { $0.replayGain = .off })

    // Tagged files: rgvolume reads REPLAYGAIN_ALBUM_GAIN/PEAK itself.
    for (files, gain) in [(loudFiles, loudGain), (quietFiles, quietGain)] {
        for file in files {
            _ = TagReader.write(["REPLAYGAIN_ALBUM_GAIN": String(format: "%+.2f dB", gain.gainDb),
                                 "REPLAYGAIN_ALBUM_PEAK": String(format: "%.6f", gain.peak)], to: file)
        }
    }
    report("album gain, tags in the files", try await playCaptured(untagged, capture: capture) { $0.replayGain = .album })

    // Untagged files, the stored gain as each entry's album gain.
    let plain = try loud.encode(.flac, in: base + "/loud-plain") + quiet.encode(.flac, in: base + "/quiet-plain")
    let stored = [loudGain.gainDb, loudGain.gainDb, quietGain.gainDb, quietGain.gainDb]
    report("album gain, stored in the library", try await playCaptured(plain, capture: capture, gains: stored) { $0.replayGain = .album })

    // A gain that would clip: the loud album (peak −1.5 dBFS) raised by 12 dB; the limiter keeps
    // every sample under full scale.
    let hot = try await playCaptured(Array(plain.prefix(2)), capture: capture, gains: [12, 12]) { $0.replayGain = .album }
    let over = hot.filter { abs($0) >= 1 }.count
    print(String(format: "%-34@ level %6.2f dBFS  highest sample %.4f (%+.2f dBFS)  samples at or over full scale: %d of %d",
                 "+12 dB on a −1.5 dBFS peak", PCMCapture.rmsDb(hot), PCMCapture.peak(hot), 20 * log10(Double(PCMCapture.peak(hot))), over, hot.count))
}
