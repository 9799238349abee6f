import CrateAudio
import CrateCore
import Foundation

/// What the player process costs and what it saves, side by side with the same player in this
/// process: the first sound of an album (load → first progress past 0), one command's round trip
/// (pause/play), and the time from a killed player to sound again. Into `fakesink sync=true`.
@MainActor
func benchPlayer(runs: Int) async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-player").path
    try? FileManager.default.removeItem(atPath: base)
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    var entries: [QueueEntry] = []
    for track in 1...2 {
        let path = "\(base)/0\(track).flac"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "-q", "audiotestsrc", "num-buffers=260", "samplesperbuffer=1024", "!", "audioconvert", "!", "flacenc",
                             "!", "filesink", "location=\(path)"]
        try process.run()
        process.waitUntilExit()
        entries.append(QueueEntry(gridIndex: 0, albumID: 1, track: Track(albumID: 1, position: track, title: "T\(track)"), filePath: path))
    }
    let sink = "fakesink sync=true"
    let executable = try PlayerProcess.locate()

    func until(_ player: any Player, timeoutMs: Int = 10_000, _ condition: (PlayerState) -> Bool) async -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        while !condition(player.state.value) {
            if DispatchTime.now().uptimeNanoseconds - start > UInt64(timeoutMs) * 1_000_000 { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
    func elapsedMs(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

    /// Load and play; the time to the first progress past 0, then 40 pause/play round trips.
    func measure(_ player: any Player) async throws -> (firstSound: Double, roundTrip: [Double]) {
        let start = DispatchTime.now().uptimeNanoseconds
        try await player.load(entries, startingAt: 0)
        try await player.play()
        guard await until(player, { $0.positionMs > 0 }) else { throw AudioPlaybackError.playbackFailed(path: nil) }
        let firstSound = elapsedMs(since: start)
        var trips: [Double] = []
        for i in 0..<40 {
            let t = DispatchTime.now().uptimeNanoseconds
            if i % 2 == 0 { await player.pause() } else { try await player.play() }
            trips.append(elapsedMs(since: t))
        }
        return (firstSound, trips)
    }

    var inFirst: [Double] = [], inTrips: [Double] = []
    var outFirst: [Double] = [], outTrips: [Double] = [], recover: [Double] = [], rss: [Double] = []
    for _ in 0..<runs {
        let local = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: sink, progressIntervalMs: 20)
        let a = try await measure(local)
        local.close()
        inFirst.append(a.firstSound)
        inTrips += a.roundTrip

        let remote = PlayerProcess(log: PlaybackLog(fileURL: nil), executable: executable, sinkDescription: sink, progressIntervalMs: 20)
        let b = try await measure(remote)
        outFirst.append(b.firstSound)
        outTrips += b.roundTrip
        if let pid = remote.processID, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
           let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) {
            rss.append(kb / 1024)
        }
        // Killed while playing: the time until the new player has sound past the old position.
        try await remote.play()
        _ = await until(remote) { $0.status == .playing && $0.positionMs > 300 }
        let position = remote.state.value.positionMs
        guard let pid = remote.processID else { continue }
        let start = DispatchTime.now().uptimeNanoseconds
        kill(pid, SIGKILL)
        _ = await until(remote) { _ in remote.processID != pid && remote.processID != nil }
        if await until(remote, { $0.status == .playing && $0.positionMs > position }) { recover.append(elapsedMs(since: start)) }
        remote.close()
    }
    print(String(format: "in this process: first sound median %.1f ms (GStreamer already initialised after the first run; first %.1f ms); pause/play round trip median %.3f ms",
                 median(inFirst), inFirst.first ?? 0, median(inTrips)))
    print(String(format: "player process:  first sound median %.1f ms (a new process each run, GStreamer initialised in it); pause/play round trip median %.3f ms",
                 median(outFirst), median(outTrips)))
    print(String(format: "player process killed while playing: sound again past the old position after median %.1f ms (%d of %d runs); player resident %.1f MB",
                 median(recover), recover.count, runs, median(rss)))
}
