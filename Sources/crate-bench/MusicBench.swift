import CrateAudio
import CrateCore
import Foundation

/// Music folder and playback measurements (docs/performance.md).

/// Runs a command as a whole process and returns its wall time in ms (nil if it failed).
func timeProcess(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        let t = try milliseconds {
            try process.run()
            process.waitUntilExit()
        }
        return process.terminationStatus == 0 ? t : nil
    } catch {
        return nil
    }
}

/// One tiny FLAC per album template, copied into `count` files (10 per album folder), each
/// tagged with its own title, track and album: a realistic tree for the indexer.
func makeMusicTree(at root: String, count: Int) throws {
    let fm = FileManager.default
    if fm.fileExists(atPath: root) { try fm.removeItem(atPath: root) }
    try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
    let template = root + "/../crate-bench-template.flac"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gst-launch-1.0", "-q", "audiotestsrc", "num-buffers=5", "!", "audioconvert", "!", "flacenc", "!", "filesink", "location=\(template)"]
    try process.run()
    process.waitUntilExit()
    let data = try Data(contentsOf: URL(fileURLWithPath: template))
    for index in 0..<count {
        let album = index / 10, track = index % 10 + 1
        let dir = "\(root)/Artist \(album % 97)/Album \(album)"
        if track == 1 { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let path = "\(dir)/\(String(format: "%02d", track)) Track.flac"
        try data.write(to: URL(fileURLWithPath: path))
        TagReader.write(["ARTIST": "Artist \(album % 97)", "ALBUM": "Album \(album)", "TITLE": "Track \(track)", "TRACKNUMBER": String(track)], to: path)
    }
}

/// `crate music scan` of `count` files from scratch and again with nothing changed, as whole
/// processes, next to `find DIR -type f | wc -l`.
func benchIndex(count: Int, runs: Int, crate: String) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-music").path
    let root = base + "/tree"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    print("generating \(count) tagged FLAC files under \(root)…")
    try makeMusicTree(at: root, count: count)
    var environment = ProcessInfo.processInfo.environment
    environment["CRATE_CONFIG_DIR"] = base + "/config"
    environment["CRATE_STATE_DIR"] = base + "/state"
    environment["CRATE_CACHE_DIR"] = base + "/cache"
    environment["CRATE_SECRET_SERVICE"] = "off"
    var full: [Double] = [], again: [Double] = [], find: [Double] = []
    for run in 0..<runs {
        environment["CRATE_DATA_DIR"] = base + "/data-\(run)"
        try? FileManager.default.removeItem(atPath: base + "/data-\(run)")
        // Drop the page cache's advantage for nobody: every run reads the same warm tree.
        if let t = timeProcess(crate, ["music", "scan", root], environment: environment) { full.append(t) }
        if let t = timeProcess(crate, ["music", "scan", root], environment: environment) { again.append(t) }
        if let t = timeProcess("/bin/sh", ["-c", "find '\(root)' -type f | wc -l"]) { find.append(t) }
    }
    print(String(format: "index %d files (new library): median %.0f ms", count, median(full)))
    print(String(format: "re-index, nothing changed:    median %.0f ms", median(again)))
    print(String(format: "find DIR -type f | wc -l:     median %.0f ms  (re-index / find = %.2f×)", median(find), median(again) / max(median(find), 0.001)))
    print("runs \(runs); all times are whole processes")
}

/// Reading tags of `count` files: TagLib (what the index uses) against GStreamer's discoverer.
func benchTagReaders(count: Int) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-tags").path
    try makeMusicTree(at: base + "/tree", count: count)
    let walk = MusicFolderWalker.walk([base + "/tree"]).files
    var taglib: [Double] = [], discoverer: [Double] = []
    try GStreamerRuntime.initialize()
    for _ in 0..<5 {
        taglib.append(milliseconds { for file in walk { _ = TagReader.read(path: file.path) } })
        discoverer.append(milliseconds {
            guard let discoverer = try? GStreamerRuntime.Discoverer(timeoutNs: 5 * 1_000_000_000) else { return }
            for file in walk { _ = discoverer.album(ofURI: MusicFile.uri(forPath: file.path)) }
        })
    }
    print(String(format: "%d files: TagLib median %.0f ms (%.3f ms/file); GStreamer discoverer median %.0f ms (%.3f ms/file)",
                 walk.count, median(taglib), median(taglib) / Double(walk.count), median(discoverer), median(discoverer) / Double(walk.count)))
}

/// Buffers seen by the sink: when each was rendered (monotonic ns) and its stream time.
final class SinkTrace: @unchecked Sendable {
    let lock = NSLock()
    var buffers: [(renderedNs: UInt64, pts: UInt64, duration: UInt64)] = []
}

private let handoff: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, buffer, _, data in
    guard let buffer, let data else { return }
    let trace = Unmanaged<SinkTrace>.fromOpaque(data).takeUnretainedValue()
    let now = DispatchTime.now().uptimeNanoseconds
    let times = GStreamerRuntime.bufferTimes(buffer)
    let entry = (now, times.pts, times.duration)
    trace.lock.withLock { trace.buffers.append(entry) }
}

/// The silence between consecutive tracks of one album at a real-time sink: gapless
/// (about-to-finish) against advancing on end-of-stream. A track boundary is where the buffer
/// timestamps start again from 0; the gap is when the new track's first buffer was rendered
/// minus when the previous track's last buffer was rendered plus its duration.
@MainActor
func benchGap(runs: Int) async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-gap").path
    try? FileManager.default.removeItem(atPath: base)
    var entries: [QueueEntry] = []
    for track in 1...3 {
        let path = "\(base)/0\(track).flac"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "-q", "audiotestsrc", "num-buffers=44", "samplesperbuffer=1024", "!", "audio/x-raw,rate=44100,channels=2",
                             "!", "audioconvert", "!", "flacenc", "!", "filesink", "location=\(path)"]
        try process.run()
        process.waitUntilExit()
        entries.append(QueueEntry(gridIndex: 0, albumID: 1, track: Track(albumID: 1, position: track, title: "T\(track)"), filePath: path))
    }
    for gapless in [true, false] {
        var gaps: [Double] = []
        var within: [Double] = []
        for _ in 0..<runs {
            let trace = SinkTrace()
            let player = try GStreamerPlayer(log: PlaybackLog(fileURL: nil), sinkDescription: "fakesink sync=true signal-handoffs=true name=cratesink")
            player.gapless = gapless
            guard let sink = player.sinkElement else { throw AudioPlaybackError.invalidSink("fakesink") }
            try GStreamerRuntime.connect(sink, signal: "handoff", handler: unsafeBitCast(handoff, to: (@convention(c) () -> Void).self),
                                         data: Unmanaged.passRetained(trace).toOpaque())
            try await player.load(entries, startingAt: 0)
            try await player.play()
            while !player.state.value.finishedQueue { try await Task.sleep(for: .milliseconds(20)) }
            player.close()
            let buffers = trace.lock.withLock { trace.buffers }
            for i in 1..<buffers.count {
                let end = buffers[i - 1].renderedNs + buffers[i - 1].duration
                let gap = (Double(buffers[i].renderedNs) - Double(end)) / 1e6
                if buffers[i].pts < buffers[i - 1].pts { gaps.append(gap) } else { within.append(abs(gap)) }
            }
        }
        let sorted = gaps.sorted()
        print(String(format: "%@: %d track changes, median gap %.3f ms, max %.3f ms (buffer-to-buffer jitter inside a track: median %.3f ms)",
                     gapless ? "gapless (about-to-finish)" : "end-of-stream advancing", gaps.count, median(gaps), sorted.last ?? 0, median(within)))
    }
}
