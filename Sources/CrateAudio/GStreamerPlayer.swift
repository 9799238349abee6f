import CCratePlugins
import CrateCore
import Foundation

/// The real player: GStreamer's `playbin` behind the `Player` protocol.
///
/// - The next track is handed to `playbin` from `about-to-finish`, so an album plays gapless;
///   `stream-start` on the bus then says the playbin moved on, and the state follows.
/// - Bus messages are taken where they are posted (`BusReader`, a sync handler): no GLib main loop
///   is needed, so the CLI and the window use the same code. Each message carries the generation
///   it was posted in; a manual move (next, previous, load, stop, seek) starts a new generation and
///   drops older messages, even those read after the move. An error names the queue entry whose
///   file failed (from the failing element's URI), not whichever entry happens to be queued.
/// - State changes are made only here, on the main actor, never from a GStreamer thread nor with
///   the session's lock held, and never while playbin may be switching groups on a streaming
///   thread (a lock-order deadlock inside playbin, docs/reliability.md #23): an error does not
///   move at once (`handle`, `watchForEnd`), moves go to NULL (no pre-rolled group survives), and
///   a seek after `about-to-finish` restarts the file instead of draining it twice.
/// - Bus errors become `AudioPlaybackError`s: a vanished or damaged file is skipped with a
///   message, a missing decoder says which package to install, no sound output stops.
/// - `CRATE_AUDIO_SINK` (a sink description such as `fakesink sync=true`) replaces the sound
///   card, so tests and headless machines run the real pipeline.
/// - Every command and state change is one line of the playback log, with the file's URI.
/// - GStreamer is reached through libCrateGStreamer.so (`PluginLoader`), opened when the pipeline
///   is built: in `init`, or at the first `load` for a `deferred` player (the window, whose start
///   must not pay for GStreamer). A missing plugin is a `PluginError`, never a crash.
@MainActor
public final class GStreamerPlayer: Player {
    /// Within this much of a track's start, "previous" goes to the previous track; later, it restarts.
    public static let restartThresholdMs = 3_000

    public let state = ObservableValue(PlayerState())
    /// Software volume, 0…1 (GStreamer allows up to 10; Crate does not amplify).
    public var volume: Double = 1 {
        didSet {
            volume = min(max(volume, 0), 1)
            pipeline?.setVolume(volume)
        }
    }
    /// False advances on end-of-stream instead of `about-to-finish` (only for measuring the gap).
    public var gapless = true
    /// Album gain or none; applied at the next `load` (the filter changes only while stopped).
    public var replayGain: ReplayGainMode = .default

    private var pipeline: Playbin?
    private var session: GStreamerSession? { pipeline?.session }
    private let sinkDescription: String?
    private let log: PlaybackLog
    private let clock: any PlaybackClock
    private let progressIntervalMs: Int
    private var queue: [QueueEntry] = []
    private var generation = 0
    private var progressTimer: ClockTimer?
    private var pendingSeekMs: Int?
    private var missingPlugin: String?
    /// Entries whose file failed while queued behind the playing one (about-to-finish handed them
    /// to playbin early): skipped when the playing file ends, not by tearing the pipeline down
    /// while it may be draining.
    private var failedAhead: Set<Int> = []
    /// Watches the playing file's end after a queued file failed (playbin then waits for the
    /// failed file instead of ending: no end-of-stream comes).
    private var endWatch: ClockTimer?
    private var endWatchLastMs: Int?
    /// The named sink element inside `CRATE_AUDIO_SINK` (for measurements), if any.
    public var sinkElement: UnsafeMutableRawPointer? { pipeline?.sinkElement }
    private var closed = false

    /// Builds a playbin. `sinkDescription` is `CRATE_AUDIO_SINK`'s value (nil: the default sound
    /// output). `deferred` waits for the first `load` to open GStreamer and build the pipeline
    /// (its errors are then thrown there).
    public init(log: PlaybackLog, clock: any PlaybackClock = LivePlaybackClock(), sinkDescription: String? = nil,
                progressIntervalMs: Int = 250, deferred: Bool = false) throws {
        self.log = log
        self.clock = clock
        self.progressIntervalMs = max(20, progressIntervalMs)
        self.sinkDescription = sinkDescription
        if !deferred { try buildPipeline() }
    }

    /// Opens libCrateGStreamer.so and builds the playbin, once.
    private func buildPipeline() throws {
        guard pipeline == nil, !closed else { return }
        let weak = WeakPlayer(self)
        pipeline = try Playbin(sinkDescription: sinkDescription, volume: volume) { event, generation in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { weak.player?.handle(event, generation: generation) }
            }
        }
    }

    /// Stops and releases the pipeline; the player cannot be used afterwards.
    public func close() {
        endWatch?.cancel()
        endWatch = nil
        stopProgress()
        closed = true
        pipeline?.close()
    }

    // MARK: - Player

    public func load(_ entries: [QueueEntry], startingAt index: Int) async throws {
        guard entries.indices.contains(index) else {
            record(command: "load", entryIndex: nil)
            throw entries.isEmpty ? PlaybackError.nothingToPlay : PlaybackError.entryOutOfRange(index)
        }
        try buildPipeline()
        guard let session else { throw AudioPlaybackError.playerUnavailable }
        stopProgress()
        setState(.null)
        queue = entries
        pipeline?.applyReplayGain(replayGain)
        generation = session.reset(paths: entries.map(\.filePath), current: index, gapless: gapless, gains: entries.map(\.albumGainDb))
        pendingSeekMs = nil
        missingPlugin = nil
        failedAhead = []
        endWatch?.cancel()
        endWatch = nil
        // A new queue starts without the last one's problem.
        state.update { $0.problem = nil }
        record(command: "load", entryIndex: index)
        transition(status: .stopped, index: index, positionMs: 0)
    }

    public func play() async throws {
        record(command: "play", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { throw PlaybackError.nothingToPlay }
        guard state.value.status != .playing else { return }
        if state.value.status == .stopped {
            guard let start = firstPlayable(from: index) else {
                finishQueue()
                return
            }
            if start != index { generation = session?.move(to: start) ?? generation }
            setURI(queue[start].uri)
            if state.value.positionMs > 0, let session {
                // Seeked while stopped: the seek is made once pre-rolled, and about-to-finish
                // queues nothing until it is (see `GStreamerSession.beginSeek`).
                pendingSeekMs = state.value.positionMs
                switch session.beginSeek(current: start) {
                case .flush(let newGeneration), .restart(let newGeneration): generation = newGeneration
                }
            }
            setState(.playing)
            transition(status: .playing, index: start, positionMs: state.value.positionMs, force: start != index)
        } else {
            setState(.playing)
            transition(status: .playing, index: index, positionMs: state.value.positionMs)
        }
        startProgress()
    }

    public func pause() async {
        record(command: "pause", entryIndex: state.value.currentIndex)
        guard state.value.status == .playing, let index = state.value.currentIndex else { return }
        let position = queryPositionMs() ?? state.value.positionMs
        setState(.paused)
        stopProgress()
        transition(status: .paused, index: index, positionMs: position)
    }

    public func stop() async {
        record(command: "stop", entryIndex: state.value.currentIndex)
        stopProgress()
        setState(.null)
        generation = session?.move(to: state.value.currentIndex) ?? generation
        transition(status: .stopped, index: state.value.currentIndex, positionMs: 0)
    }

    public func seek(toMs positionMs: Int) async {
        record(command: "seek", entryIndex: state.value.currentIndex, positionMs: positionMs)
        guard state.value.currentIndex != nil else { return }
        let duration = state.value.durationMs
        let clamped = max(0, duration > 0 ? min(positionMs, duration) : positionMs)
        if state.value.status == .stopped {
            state.update { $0.positionMs = clamped }
            return
        }
        guard let session, let index = state.value.currentIndex else { return }
        // A seek flushes what was queued for gapless: that file is asked for again near the end.
        switch session.beginSeek(current: index) {
        case .flush(let newGeneration):
            generation = newGeneration
            if !seekPipeline(toMs: clamped) {
                pendingSeekMs = clamped
            }
        case .restart(let newGeneration):
            // playbin may already hold the next file: a flushing seek now would make the current
            // file drain again and deadlock inside playbin. Start the file again instead.
            generation = newGeneration
            let status = state.value.status
            setState(.null)
            setURI(queue[index].uri)
            setState(status == .playing ? .playing : .paused)
            pendingSeekMs = clamped
        }
        state.update { $0.positionMs = clamped }
    }

    public func next() async {
        record(command: "next", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { return }
        move(to: index + 1)
    }

    public func previous() async {
        record(command: "previous", entryIndex: state.value.currentIndex)
        guard let index = state.value.currentIndex else { return }
        let position = queryPositionMs() ?? state.value.positionMs
        move(to: position > Self.restartThresholdMs || index == 0 ? index : index - 1)
    }

    // MARK: - Moving

    /// Makes `index` current from its start (skipping files gone from disk), keeping
    /// playing/paused/stopped; past the end, finishes.
    private func move(to requested: Int, problem: AudioPlaybackError? = nil) {
        endWatch?.cancel()
        endWatch = nil
        stopProgress()
        setState(.null)
        guard let index = firstPlayable(from: requested) else {
            generation = session?.move(to: nil) ?? generation
            finishQueue(problem: problem)
            return
        }
        generation = session?.move(to: index) ?? generation
        let status = state.value.status
        setURI(queue[index].uri)
        switch status {
        case .playing: setState(.playing)
        case .paused: setState(.paused)
        case .stopped: break
        }
        transition(status: status, index: index, positionMs: 0, force: true, problem: problem)
        if status == .playing { startProgress() }
    }

    /// The first entry from `index` on whose file exists; the ones skipped are logged and said.
    private func firstPlayable(from index: Int) -> Int? {
        var index = index
        while queue.indices.contains(index) {
            if failedAhead.contains(index) {
                // Its error was logged and said when it failed.
                index += 1
                continue
            }
            if let path = queue[index].filePath, GStreamerSession.exists(path) { return index }
            skipped(index, because: queue[index].filePath.map { AudioPlaybackError.fileMissing(path: $0) } ?? .playbackFailed(path: nil))
            index += 1
        }
        return nil
    }

    private func skipped(_ index: Int, because error: AudioPlaybackError) {
        var line = line(entryIndex: index, state: "skipped", positionMs: 0)
        line.reason = "file_missing"
        line.message = error.message
        log.append(line)
        state.update { $0.problem = error.message }
    }

    private func finishQueue(problem: AudioPlaybackError? = nil) {
        stopProgress()
        setState(.null)
        let last = state.value.currentIndex
        var finished = PlayerState()
        finished.queueCount = queue.count
        finished.finishedQueue = true
        finished.problem = problem?.message ?? state.value.problem
        // The line first: a caller waiting for the stopped state (`crate play`, through the player
        // process, which reports both in this order) may close the log as soon as it sees it.
        var line = line(entryIndex: last, state: PlayerState.Status.stopped.rawValue, positionMs: 0)
        line.reason = "end_of_queue"
        log.append(line)
        state.set(finished)
    }

    // MARK: - The bus

    private func handle(_ event: BusEvent, generation eventGeneration: Int) {
        guard eventGeneration == generation else { return }
        switch event {
        case .started(let index, let gone):
            for skippedIndex in gone {
                skipped(skippedIndex, because: .fileMissing(path: queue[skippedIndex].filePath ?? ""))
            }
            transition(status: state.value.status, index: index, positionMs: 0, force: true)
        case .endOfStream:
            guard let index = state.value.currentIndex else { return }
            // Without gapless (or when about-to-finish found nothing), the next file starts here.
            move(to: index + 1)
        case .asyncDone:
            if let seek = pendingSeekMs {
                pendingSeekMs = nil
                if !seekPipeline(toMs: seek) { session?.seekDone() }
            } else {
                // The seek (or the pre-roll) is done: about-to-finish may hand playbin the next file.
                session?.seekDone()
            }
            updateProgress()
        case .durationChanged:
            updateProgress()
        case .missingPlugin(let caps):
            missingPlugin = caps
        case .error(let domain, let code, _, let fromSink, let index):
            let failing = index ?? state.value.currentIndex
            let path = failing.flatMap { queue.indices.contains($0) ? queue[$0].filePath : nil }
            let error = Self.map(domain: domain, code: code, fromSink: fromSink, missingPlugin: missingPlugin, path: path)
            missingPlugin = nil
            var line = line(entryIndex: failing, state: "error", positionMs: 0)
            line.message = error.message
            log.append(line)
            switch error {
            case .noAudioOutput, .invalidSink, .playerUnavailable:
                // Nothing in the queue can play either: stop and say why.
                stopProgress()
                setState(.null)
                generation = session?.move(to: state.value.currentIndex) ?? generation
                transition(status: .stopped, index: state.value.currentIndex, positionMs: 0, problem: error)
            default:
                guard let current = state.value.currentIndex, state.value.status == .playing else {
                    move(to: (failing ?? 0) + 1, problem: error)
                    return
                }
                // Never move (a state change) the moment an error arrives: it is posted while
                // playbin may be switching groups on a streaming thread (a file queued behind the
                // playing one fails inside that switch), and changing the state then deadlocks
                // inside playbin. The failed entry is marked; the player moves on once the
                // playing file's stream has stopped (its end, or the failed file's own stop).
                if let failing, failing > current {
                    // A file queued behind the playing one: the playing file goes on, and the
                    // failed entry is passed over when it ends (watched: playbin posts nothing).
                    failedAhead.insert(failing)
                    state.update { $0.problem = error.message }
                    watchForEnd(of: current, problem: error)
                    return
                }
                // The playing file failed: its stream has stopped. Move on a moment later, once
                // a group switch playbin may be making on a streaming thread is over.
                let failedGeneration = generation
                endWatch?.cancel()
                endWatch = clock.schedule(afterMs: 2 * progressIntervalMs) { [weak self] in
                    guard let self, self.generation == failedGeneration else { return }
                    self.endWatch = nil
                    self.move(to: (failing ?? current) + 1, problem: error)
                }
            }
        }
    }

    /// After a queued file failed: playbin plays the current file to its end and then waits for
    /// the failed one, posting nothing. Once the position reaches the file's duration (or stops
    /// moving while playing), the file has drained and nothing streams: the player moves on.
    private func watchForEnd(of index: Int, problem: AudioPlaybackError) {
        endWatch?.cancel()
        endWatchLastMs = nil
        let watchedGeneration = generation
        endWatch = clock.schedule(afterMs: progressIntervalMs) { [weak self] in
            guard let self, self.generation == watchedGeneration, self.state.value.currentIndex == index else { return }
            guard self.state.value.status == .playing else {
                // Paused: look again later.
                self.watchForEnd(of: index, problem: problem)
                return
            }
            // Unknown (-1) counts as not moving: playbin stops answering once it waits for the
            // failed file.
            let position = self.queryPositionMs() ?? -1
            let duration = self.queryDurationMs() ?? self.state.value.durationMs
            let ended = (duration > 0 && position >= duration - 20) || self.endWatchLastMs == position
            if ended {
                self.endWatch = nil
                self.move(to: index + 1, problem: problem)
            } else {
                self.watchForEnd(of: index, problem: problem)
                self.endWatchLastMs = position
            }
        }
    }

    static func map(domain: String, code: Int, fromSink: Bool, missingPlugin: String?, path: String?) -> AudioPlaybackError {
        if let missingPlugin { return AudioPlaybackError.missingPlugin(forCaps: missingPlugin) }
        switch domain {
        case "gst-core-error-quark" where code == CRATE_GST_CORE_ERROR_MISSING_PLUGIN:
            return .missingPlugin(format: "these", package: "gstreamer1.0-libav")
        case "gst-stream-error-quark" where code == CRATE_GST_STREAM_ERROR_CODEC_NOT_FOUND:
            return .missingPlugin(format: "these", package: "gstreamer1.0-libav")
        case "gst-resource-error-quark":
            if fromSink { return .noAudioOutput }
            if code == CRATE_GST_RESOURCE_ERROR_NOT_FOUND || code == CRATE_GST_RESOURCE_ERROR_OPEN_READ,
               let path, !GStreamerSession.exists(path) {
                return .fileMissing(path: path)
            }
            return path.map { .unreadableFile(path: $0) } ?? .playbackFailed(path: nil)
        case "gst-stream-error-quark":
            return path.map { .unreadableFile(path: $0) } ?? .playbackFailed(path: nil)
        default:
            return fromSink ? .noAudioOutput : .playbackFailed(path: path)
        }
    }

    // MARK: - Progress

    private func startProgress() {
        stopProgress()
        progressTimer = clock.schedule(afterMs: progressIntervalMs) { [weak self] in
            self?.updateProgress()
            self?.startProgress()
        }
    }

    private func stopProgress() {
        progressTimer?.cancel()
        progressTimer = nil
    }

    private func updateProgress() {
        guard state.value.currentIndex != nil, state.value.status != .stopped else { return }
        let position = queryPositionMs()
        let duration = queryDurationMs()
        state.update {
            if let position { $0.positionMs = position }
            if let duration, duration > 0 { $0.durationMs = duration }
        }
    }

    /// Where playback is now, or nil before the pipeline knows.
    public func queryPositionMs() -> Int? { pipeline?.positionMs() }

    private func queryDurationMs() -> Int? { pipeline?.durationMs() }

    private func setState(_ target: Playbin.State) { pipeline?.set(target) }

    private func setURI(_ uri: String?) { pipeline?.setURI(uri) }

    /// A flushing, accurate seek; false when the pipeline cannot seek yet.
    private func seekPipeline(toMs positionMs: Int) -> Bool { pipeline?.seek(toMs: positionMs) ?? false }

    // MARK: - Log

    private func transition(status: PlayerState.Status, index: Int?, positionMs: Int, force: Bool = false, problem: AudioPlaybackError? = nil) {
        let old = state.value
        var new = PlayerState()
        new.status = status
        new.currentIndex = index
        new.currentEntry = index.map { queue[$0] }
        new.positionMs = positionMs
        new.durationMs = new.currentEntry?.durationMs ?? 0
        new.queueCount = queue.count
        new.problem = problem?.message ?? old.problem
        state.set(new)
        if force || old.status != status || old.currentIndex != index || old.finishedQueue {
            var line = line(entryIndex: index, state: status.rawValue, positionMs: positionMs)
            line.message = problem?.message
            log.append(line)
        }
    }

    private func record(command: String, entryIndex: Int?, positionMs: Int? = nil) {
        log.append(line(entryIndex: entryIndex, command: command, positionMs: positionMs ?? state.value.positionMs))
    }

    private func line(entryIndex: Int?, command: String? = nil, state: String? = nil, positionMs: Int) -> PlaybackLogLine {
        let entry = entryIndex.flatMap { queue.indices.contains($0) ? queue[$0] : nil }
        return PlaybackLogLine(
            time: PlaybackLogLine.timestamp(clock.date),
            elapsed_ms: clock.nowMs,
            command: command,
            state: state,
            reason: nil,
            album_id: entry?.albumID,
            entry: entry == nil ? nil : entryIndex,
            track: entry.map { .init(disc: $0.track.disc, position: $0.track.position, title: $0.track.title, duration_ms: $0.track.durationMs) },
            position_ms: positionMs,
            uri: entry?.uri
        )
    }
}

/// Lets the bus handler's closures reach the player without keeping it alive.
private final class WeakPlayer: @unchecked Sendable {
    weak var player: GStreamerPlayer?
    init(_ player: GStreamerPlayer) { self.player = player }
}
