import CrateCore
import Foundation

/// The real player as the window and the CLI use it: GStreamer runs in a player process of its
/// own (`crate-player`, a `PlayerHost`), driven over a pipe, and started again when it dies.
///
/// GStreamer 1.22's playbin can abort on a damaged file (an assertion inside its own switch to
/// the next file, docs/reliability.md #23); in the window's process that was a crash. Here it is
/// a line in the log and a message: the player is started again, the queue loaded into it, and
/// playback carries on from the same track and position. A track the player dies on twice is
/// skipped; a player that dies `restartLimit` times within a minute stops playback and says so.
///
/// - A player that hangs (playbin can deadlock inside its own group switch, the same section) is
///   treated as one that died: a command unanswered for `answerLimitMs`, or a track "playing"
///   with no progress for `stallLimitMs`, gets the process killed and started again.
/// - Every command waits for the player's reply, which comes after the state lines the command
///   caused: when a command returns, `state` shows what it did, as with an in-process player.
/// - The process starts at the first command (the window's start does not pay for it) and ends
///   with `close()`, or by itself when this process goes away (its input closes).
/// - Log lines come from the player process and are written here, to this side's `PlaybackLog`.
@MainActor
public final class PlayerProcess: Player {
    /// The executable's name, found like the plugins are (`PlayerProcess.locate`).
    public nonisolated static let executableName = "crate-player"
    /// Deaths within `restartWindowMs` after which playback stops instead of restarting.
    public static let restartLimit = 3
    public static let restartWindowMs = 60_000
    /// How long a command may go unanswered, and a playing track without progress, before the
    /// player counts as hung. The first command also opens GStreamer, which on a first run
    /// rebuilds its plugin registry: seconds, not minutes.
    public static let defaultAnswerLimitMs = 15_000
    public static let defaultStallLimitMs = 10_000

    public let state = ObservableValue(PlayerState())
    /// Software volume, 0…1 (a new player process gets it too).
    public var volume: Double = 1 {
        didSet {
            volume = min(max(volume, 0), 1)
            if child != nil { Task { try? await self.request(.volume(volume)) } }
        }
    }
    /// ReplayGain (a new player process gets it too); applied from the next `load`.
    public var replayGain: ReplayGainMode = .default {
        didSet {
            if child != nil, replayGain != oldValue { Task { try? await self.request(.replayGain(replayGain)) } }
        }
    }
    /// The running player process, if any (tests stop it on purpose).
    public var processID: Int32? { child?.pid }
    /// How many times the player process was started again after it died.
    public private(set) var restarts = 0

    /// A command on its way: sent to the player (and waiting for its reply), or held until a
    /// restore has brought a new player to where the old one was.
    private struct Job {
        let command: PlayerWire.Command
        /// A `load`'s queue, which becomes `queue` when the load is sent.
        var entries: [QueueEntry]?
        /// One of a restore's own steps (never held).
        var isRestoreStep = false
        let continuation: CheckedContinuation<(any Error)?, Never>
    }

    /// Where a restore brings a new player: kept across a death during the restore itself.
    private struct Restore {
        var index: Int
        var positionMs: Int
        var play: Bool
        var problem: PlayerProcessError
    }

    private let executable: String
    private let sinkDescription: String?
    private let progressIntervalMs: Int
    private let log: PlaybackLog
    private let clock: any PlaybackClock
    private let answerLimitMs: Int
    private let stallLimitMs: Int
    private var child: PlayerChild?
    private var queue: [QueueEntry] = []
    private var nextRequestID = 0
    /// Sent and not answered yet, by request id, with when each was sent (clock ms).
    private var inFlight: [Int: (job: Job, sentAtMs: Int)] = [:]
    /// Commands made while a restore runs (or sent to a player that died): sent, in order, once
    /// it is done.
    private var held: [Job] = []
    private var restore: Restore?
    /// While a restore runs, the new player's states are kept here, not shown.
    private var restoredState: PlayerState?
    /// Counts restores, so one overtaken by a newer death stops.
    private var restoreAttempt = 0
    /// When the playing track last moved on (a status change counts as moving).
    private var lastProgress: (status: PlayerState.Status, index: Int?, positionMs: Int, atMs: Int)?
    private var watchdog: ClockTimer?
    /// When the player died lately (clock ms), and how often on each entry of this queue.
    private var deaths: [Int] = []
    private var deathsByEntry: [Int: Int] = [:]
    /// Whether the running player has said anything yet: one that dies before that failed to
    /// start (starting it again would fail the same way), and its first answer may take long (a
    /// first `gst_init` rebuilds GStreamer's plugin registry).
    private var childReported = false
    private var closed = false

    /// `executable` is `crate-player`'s path (`locate()`); `sinkDescription` is `CRATE_AUDIO_SINK`.
    public init(log: PlaybackLog, executable: String, sinkDescription: String? = nil, progressIntervalMs: Int = 250,
                clock: any PlaybackClock = LivePlaybackClock(), answerLimitMs: Int = defaultAnswerLimitMs,
                stallLimitMs: Int = defaultStallLimitMs) {
        self.log = log
        self.answerLimitMs = answerLimitMs
        self.stallLimitMs = stallLimitMs
        self.executable = executable
        self.sinkDescription = sinkDescription
        self.progressIntervalMs = progressIntervalMs
        self.clock = clock
        // A write to a player that just died must be an error, not a signal that ends this process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// `$CRATE_PLAYER_PATH` when set; otherwise `crate-player` where the plugins are looked for.
    public nonisolated static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PlayerProcessError) -> String {
        if let path = environment["CRATE_PLAYER_PATH"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw .notInstalled(searched: [path]) }
            return path
        }
        let directories = PluginLoader.searchDirectories(environment: environment)
        guard let path = directories.map({ ($0 as NSString).appendingPathComponent(executableName) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw .notInstalled(searched: directories)
        }
        return path
    }

    /// Ends the player process (it stops the pipeline when its input closes). No command works afterwards.
    public func close() {
        closed = true
        child?.closeInput()
        child = nil
        watchdog?.cancel()
        watchdog = nil
        restore = nil
        answerAll(held.map { $0 } + inFlight.values.map(\.job), with: AudioPlaybackError.playerUnavailable)
        held = []
        inFlight = [:]
    }

    // MARK: - Player

    public func load(_ entries: [QueueEntry], startingAt index: Int) async throws {
        guard entries.indices.contains(index) else {
            throw entries.isEmpty ? PlaybackError.nothingToPlay : PlaybackError.entryOutOfRange(index)
        }
        try await request(.load(entries: entries.map(PlayerWire.Entry.init), index: index), entries: entries)
    }

    public func play() async throws {
        if child == nil, restore == nil, let index = state.value.currentIndex, !queue.isEmpty {
            // The player gave up (it kept dying) or was never started: a new one gets the queue.
            let position = state.value.positionMs
            try await request(.load(entries: queue.map(PlayerWire.Entry.init), index: index))
            if position > 0 { try await request(.seek(positionMs: position)) }
        }
        try await request(.play)
    }

    public func pause() async { try? await request(.pause) }
    public func stop() async { try? await request(.stop) }
    public func seek(toMs positionMs: Int) async { try? await request(.seek(positionMs: positionMs)) }
    public func next() async { try? await request(.next) }
    public func previous() async { try? await request(.previous) }

    // MARK: - Requests

    /// Sends `command` (or holds it while a restore runs) and waits for its answer.
    private func request(_ command: PlayerWire.Command, entries: [QueueEntry]? = nil, restoreStep: Bool = false) async throws {
        guard !closed else { throw AudioPlaybackError.playerUnavailable }
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            let job = Job(command: command, entries: entries, isRestoreStep: restoreStep, continuation: continuation)
            if restore != nil && !restoreStep { held.append(job) } else { send(job) }
        }
        if let failure { throw failure }
    }

    private func send(_ job: Job) {
        let child: PlayerChild
        do {
            child = try runningChild()
        } catch {
            job.continuation.resume(returning: error)
            return
        }
        if let entries = job.entries {
            // A new queue: deaths on the old one no longer count.
            queue = entries
            deaths = []
            deathsByEntry = [:]
        }
        nextRequestID += 1
        inFlight[nextRequestID] = (job, clock.nowMs)
        ensureWatchdog()
        // A player that is gone answers nothing: its end (seen by the reader) answers this.
        child.send(PlayerWire.Request(id: nextRequestID, command: job.command))
    }

    private func runningChild() throws -> PlayerChild {
        if let child { return child }
        let child = try PlayerChild.spawn(executable: executable, sinkDescription: sinkDescription, progressIntervalMs: progressIntervalMs) { [weak self] child, event in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.receive(event, from: child) }
            }
        }
        self.child = child
        lastProgress = nil
        childReported = false
        // Its answer (id 0) is not waited for: volume cannot fail.
        if volume != 1 { child.send(PlayerWire.Request(id: 0, command: .volume(volume))) }
        if replayGain != .default { child.send(PlayerWire.Request(id: 0, command: .replayGain(replayGain))) }
        return child
    }

    private func answerAll(_ jobs: [Job], with error: (any Error)?) {
        for job in jobs { job.continuation.resume(returning: error) }
    }

    // MARK: - The player's reports

    private func receive(_ event: PlayerChild.Event, from child: PlayerChild) {
        guard child === self.child else { return }
        if case .report = event { childReported = true }
        switch event {
        case .report(.state(let wire)):
            noteProgress(wire)
            let new = wire.playerState(queue: queue)
            if restore != nil { restoredState = new } else { state.set(new) }
        case .report(.log(var line)):
            // One timeline across restarts: this side's clock, not the player process's.
            line.elapsed_ms = clock.nowMs
            log.append(line)
        case .report(.reply(let id, let failure)):
            inFlight.removeValue(forKey: id)?.job.continuation.resume(returning: failure?.error)
        case .unreadable(let text):
            Log.error("crate-player sent a line Crate cannot read: \(text)")
        case .ended(let reason):
            self.child = nil
            childDied(reason: reason)
        }
    }

    // MARK: - A player that hangs

    /// Looks every half second while a command waits or a track plays; idle, nothing wakes up.
    private func ensureWatchdog() {
        guard watchdog == nil, !closed else { return }
        watchdog = clock.schedule(afterMs: 500) { [weak self] in
            guard let self else { return }
            self.watchdog = nil
            self.checkHealth()
            if !self.inFlight.isEmpty || self.state.value.status == .playing || self.restore != nil { self.ensureWatchdog() }
        }
    }

    /// Kills a player that stopped answering or stopped moving, and counts it as dead at once:
    /// a process stuck in the kernel (a hung network mount) may not end for a long time.
    private func checkHealth() {
        guard let child else { return }
        let now = clock.nowMs
        let limit = childReported ? answerLimitMs : max(answerLimitMs, 60_000)
        var reason: String?
        if let oldest = inFlight.values.map(\.sentAtMs).min(), now - oldest > limit {
            reason = L10n.tr("not answering")
        } else if let progress = lastProgress, restore == nil, progress.status == .playing, now - progress.atMs > stallLimitMs {
            reason = L10n.tr("stuck")
        }
        guard let reason else { return }
        child.kill()
        self.child = nil
        childDied(reason: reason)
    }

    /// Notes when the playing track last moved on: a new status, track or position.
    private func noteProgress(_ wire: PlayerWire.State) {
        if let last = lastProgress, last.status == wire.status, last.index == wire.currentIndex, last.positionMs == wire.positionMs { return }
        lastProgress = (wire.status, wire.currentIndex, wire.positionMs, clock.nowMs)
        if wire.status == .playing { ensureWatchdog() }
    }

    // MARK: - A player that died

    private func childDied(reason: String) {
        guard !closed else { return }
        // What the dead player had not answered is sent again to the next one, after the
        // restore (a restore's own steps are not: a new restore replaces them).
        let unanswered = inFlight.sorted { $0.key < $1.key }.map(\.value.job)
        inFlight = [:]
        answerAll(unanswered.filter(\.isRestoreStep), with: nil)
        held = unanswered.filter { !$0.isRestoreStep } + held
        let now = clock.nowMs
        deaths = deaths.filter { now - $0 < Self.restartWindowMs } + [now]
        restoreAttempt += 1

        // Where the player was: a restore under way keeps its target.
        let last = state.value
        let index = restore?.index ?? last.currentIndex
        let positionMs = restore?.positionMs ?? (last.status == .stopped && last.positionMs == 0 ? 0 : last.positionMs)
        let wasPlaying = restore?.play ?? (last.status == .playing)
        guard childReported, let index, queue.indices.contains(index) else {
            // It never started (starting it again would fail the same way), or nothing was loaded.
            Log.error("crate-player ended (\(reason)) \(childReported ? "with nothing loaded" : "before it answered")")
            stopPlayback(problem: PlayerProcessError.endedAtStart(reason: reason), failing: true)
            return
        }
        guard !held.contains(where: { $0.entries != nil }) else {
            // A new queue was on its way: it replaces whatever the old player held.
            logDeath(entry: index, reason: reason, problem: .restarted(path: queue[index].filePath, reason: reason))
            restarts += 1
            restore = nil
            sendHeld()
            return
        }
        guard deaths.count < Self.restartLimit else {
            let problem = PlayerProcessError.keepsStopping(count: deaths.count)
            logDeath(entry: index, reason: reason, problem: problem)
            stopPlayback(problem: problem, failing: false)
            return
        }
        deathsByEntry[index, default: 0] += 1
        var target = Restore(index: index, positionMs: positionMs, play: wasPlaying, problem: .restarted(path: queue[index].filePath, reason: reason))
        if deathsByEntry[index, default: 0] >= 2 {
            target = Restore(index: index + 1, positionMs: 0, play: wasPlaying, problem: .stoppedTwice(path: queue[index].filePath))
        }
        logDeath(entry: index, reason: reason, problem: target.problem)
        restarts += 1
        guard queue.indices.contains(target.index) else {
            // The skipped track was the last one: the queue is over.
            restore = nil
            var finished = PlayerState()
            finished.queueCount = queue.count
            finished.finishedQueue = true
            finished.problem = target.problem.message
            state.set(finished)
            sendHeld()
            return
        }
        startRestore(target)
    }

    /// Brings a new player to `target`: the queue, the track, the position, playing or not.
    /// Commands made meanwhile wait in `held` and follow.
    private func startRestore(_ target: Restore) {
        restore = target
        restoredState = nil
        let attempt = restoreAttempt
        Task { @MainActor in
            do {
                try await request(.load(entries: queue.map(PlayerWire.Entry.init), index: target.index), restoreStep: true)
                guard attempt == restoreAttempt else { return }
                if target.positionMs > 0 { try await request(.seek(positionMs: target.positionMs), restoreStep: true) }
                guard attempt == restoreAttempt else { return }
                if target.play { try await request(.play, restoreStep: true) }
                guard attempt == restoreAttempt else { return }
            } catch {
                // No new player could be started, or it refused the queue: stop and say why.
                guard attempt == restoreAttempt else { return }
                stopPlayback(problem: error, failing: true)
                return
            }
            restore = nil
            var restored = restoredState ?? state.value
            restored.problem = target.problem.message
            state.set(restored)
            sendHeld()
        }
    }

    /// Stops where the player was, with `problem` shown; held commands are answered (with the
    /// problem when `failing`, else as done: the next Play starts a new player).
    private func stopPlayback(problem: any Error, failing: Bool) {
        restore = nil
        var stopped = state.value
        stopped.status = .stopped
        stopped.problem = UserMessage.text(for: problem)
        state.set(stopped)
        let jobs = held
        held = []
        answerAll(jobs, with: failing ? problem : nil)
    }

    private func sendHeld() {
        let jobs = held
        held = []
        for job in jobs { send(job) }
    }

    private func logDeath(entry index: Int, reason: String, problem: PlayerProcessError) {
        Log.error("crate-player ended (\(reason)) while on \(queue[index].filePath.map(PathBytes.displayName) ?? "entry \(index)")")
        let entry = queue[index]
        var line = PlaybackLogLine(
            time: PlaybackLogLine.timestamp(clock.date), elapsed_ms: clock.nowMs, command: nil, state: "error", reason: "player_ended",
            album_id: entry.albumID, entry: index,
            track: .init(disc: entry.track.disc, position: entry.track.position, title: entry.track.title, duration_ms: entry.track.durationMs),
            position_ms: state.value.positionMs, uri: entry.uri)
        line.message = problem.message
        log.append(line)
    }
}
