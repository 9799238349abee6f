import CrateAudio
import CrateCore
import CrateTestSupport
import Foundation

/// Gapless on lossy files, sample by sample: one continuous signal (`ToneAlbum`, 6 tracks of
/// unequal lengths) encoded per format with Debian's encoders, played through `GStreamerPlayer`
/// (about-to-finish, playbin's own decoders) into a file (`PCMCapture`), and at every track
/// boundary the shift of the played signal against the original measured just before and just
/// after the join. A seam of +N samples is a gap (or N samples the decoder did not trim), −N is
/// N samples lost. docs/performance.md, "Gapless on lossy files".
@MainActor
func benchLossyGap(formats: [ToneAlbum.Format]) async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-lossy-gap").path
    try? FileManager.default.removeItem(atPath: base)
    let album = ToneAlbum(trackSeconds: [2.0137, 1.5071, 2.2219, 1.8003, 2.4441, 1.0])
    print("format             seams  median ms  max |ms|  start shift  length Δ (samples)  min corr.")
    for format in formats {
        let tool = format.tool
        guard ToneAlbum.hasTool(tool) else {
            print("\(format.rawValue): \(tool) is missing (apt install \(format.package))")
            continue
        }
        let directory = "\(base)/\(format.rawValue)"
        let files = try album.encode(format, in: directory)
        let capture = PCMCapture(path: "\(directory)/played.f32")
        let played = try await playCaptured(files, capture: capture)
        let (start, seams) = PCMCapture.seams(played: played, album: album)
        let ms = seams.map(\.milliseconds)
        let worst = ms.map(abs).max() ?? 0
        let corr = seams.map(\.correlation).min() ?? 0
        print(String(format: "%-18@ %5d  %9.3f  %8.3f  %11d  %18d  %9.4f", format.rawValue, seams.count, median(ms), worst, start,
                     played.count - album.signal.count, corr))
        print("    seams (samples): " + seams.map { String($0.samples) }.joined(separator: " "))
    }
}

/// Plays `files` as one album through the real player into `capture` and returns the samples.
@MainActor
func playCaptured(_ files: [String], capture: PCMCapture, gains: [Double]? = nil, configure: (GStreamerPlayer) -> Void = { _ in }) async throws -> [Float] {
    try? FileManager.default.removeItem(atPath: capture.path)
    let entries = files.enumerated().map { index, path in
        QueueEntry(gridIndex: 0, albumID: 1, track: Track(albumID: 1, position: index + 1, title: "T\(index + 1)"), filePath: path,
                   albumGainDb: gains?[index])
    }
    let player = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: capture.sinkDescription)
    configure(player)
    try await player.load(entries, startingAt: 0)
    try await player.play()
    let start = DispatchTime.now().uptimeNanoseconds
    while !player.state.value.finishedQueue {
        if DispatchTime.now().uptimeNanoseconds - start > 60_000_000_000 { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    let problem = player.state.value.problem
    player.close()
    if let problem { print("    player: \(problem)") }
    return try capture.samples()
}

extension ToneAlbum.Format {
    static func parse(_ names: ArraySlice<String>) -> [ToneAlbum.Format] {
        let chosen = names.compactMap { ToneAlbum.Format(rawValue: $0) }
        return chosen.isEmpty ? ToneAlbum.Format.allCases : chosen
    }
}
