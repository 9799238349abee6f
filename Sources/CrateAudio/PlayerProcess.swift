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
    /// Software volume, 0…1.
    public var volume: Double = 1 {
        didSet {
            volume = min(max(volume, 0), 1)
            if child != nil { Task { try? await self.request(.volume(volume)) } }
        }
    }
    /// The running player process, if any (tests stop it on purpose).
    public var processID: Int32? { child?.pid }
    /// How many times the player process was started again after it died.
    public private(set) var restarts = 0

    private let executable: String
    private let sinkDescription: String?
    private let progressIntervalMs: Int
    private let log: PlaybackLog
    private let clock: any PlaybackClock
    private let answerLimitMs: Int
    private let stallLimitMs: Int
    private var child: Child?
    /// When each unanswered request was sent (clock ms), and when playback last moved on.
    private var sentAt: [Int: Int] = [:]
    private var lastProgress: (index: Int?, positionMs: Int, atMs: Int)?
    private var watchdog: ClockTimer?
    private var queue: [QueueEntry] = []
    private var nextRequestID = 0
    private var waiting: [Int: CheckedContinuation<(any Error)?, Never>] = [:]
    /// Requests made while a dead player is replaced: answered once the new one has caught up.
    private var heldReplies: [CheckedContinuation<(any Error)?, Never>] = []
    /// While the new player is brought to where the old one was, its states are kept, not shown.
    private var recovering = false
    private var recoveredState: PlayerState?
    /// Counts recoveries, so one overtaken by a newer death stops.
    private var recovery = 0
    /// When the player died lately (clock ms), and how often on each entry of this queue.
    private var deaths: [Int] = []
    private var deathsByEntry: [Int: Int] = [:]
    /// The entry a `load` in flight starts at: a player that dies before answering it is
    /// replaced with the new queue there, not at the old queue's position.
    private var loading: Int?
    /// Whether the running player has said anything yet: one that dies before that failed to
    /// start (starting it again would fail the same way).
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
        if let child { child.closeInput() }
        child = nil
        watchdog?.cancel()
        watchdog = nil
        resumeAll()
    }

    // MARK: - Player

    public func load(_ entries: [QueueEntry], startingAt index: Int) async throws {
        guard entries.indices.contains(index) else {
            throw entries.isEmpty ? PlaybackError.nothingToPlay : PlaybackError.entryOutOfRange(index)
        }
        queue = entries
        deathsByEntry = [:]
        deaths = []
        loading = index
        defer { loading = nil }
        try await request(.load(entries: entries.map(PlayerWire.Entry.init), index: index))
    }

    public func play() async throws {
        if child == nil, let index = state.value.currentIndex, !queue.isEmpty {
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

    private func request(_ command: PlayerWire.Command) async throws {
        guard !closed else { throw AudioPlaybackError.playerUnavailable }
        let child = try runningChild()
        nextRequestID += 1
        let id = nextRequestID
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            waiting[id] = continuation
            sentAt[id] = clock.nowMs
            ensureWatchdog()
            // A player that is gone answers nothing: its end (seen by the reader) answers this.
            child.send(PlayerWire.Request(id: id, command: command))
        }
        if let failure { throw failure }
    }

    private func runningChild() throws -> Child {
        if let child { return child }
        let child = try Child.spawn(executable: executable, sinkDescription: sinkDescription, progressIntervalMs: progressIntervalMs) { [weak self] child, event in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.receive(event, from: child) }
            }
        }
        self.child = child
        lastProgress = nil
        childReported = false
        return child
    }

    // MARK: - A player that hangs

    /// Looks every half second while a command waits or a track plays; idle, nothing wakes up.
    private func ensureWatchdog() {
        guard watchdog == nil, !closed else { return }
        watchdog = clock.schedule(afterMs: 500) { [weak self] in
            guard let self else { return }
            self.watchdog = nil
            self.checkHealth()
            if !self.sentAt.isEmpty || self.state.value.status == .playing || self.recovering { self.ensureWatchdog() }
        }
    }

    /// Kills a player that stopped answering or stopped moving; its end then restarts it.
    private func checkHealth() {
        guard let child, !child.isEnding else { return }
        let now = clock.nowMs
        if let oldest = sentAt.values.min(), now - oldest > answerLimitMs {
            child.kill(reason: L10n.tr("not answering"))
        } else if let progress = lastProgress, !recovering, state.value.status == .playing, now - progress.atMs > stallLimitMs {
            child.kill(reason: L10n.tr("stuck"))
        }
    }

    /// Notes when a playing track last moved on (a paused or stopped one counts as moving).
    private func noteProgress(_ wire: PlayerWire.State) {
        let now = clock.nowMs
        if wire.status != .playing || lastProgress?.index != wire.currentIndex || lastProgress?.positionMs != wire.positionMs {
            lastProgress = (wire.currentIndex, wire.positionMs, now)
        }
        if wire.status == .playing { ensureWatchdog() }
    }

    private func receive(_ event: Child.Event, from child: Child) {
        guard child === self.child else { return }
        if case .report = event { childReported = true }
        switch event {
        case .report(.state(let wire)):
            noteProgress(wire)
            let new = wire.playerState(queue: queue)
            if recovering { recoveredState = new } else { state.set(new) }
        case .report(.log(var line)):
            // One timeline across restarts: this side's clock, not the player process's.
            line.elapsed_ms = clock.nowMs
            log.append(line)
        case .report(.reply(let id, let failure)):
            sentAt.removeValue(forKey: id)
            waiting.removeValue(forKey: id)?.resume(returning: failure?.error)
        case .unreadable(let text):
            Log.error("crate-player sent a line Crate cannot read: \(text)")
        case .ended(let reason):
            self.child = nil
            childDied(reason: reason)
        }
    }

    // MARK: - A player that died

    private func childDied(reason: String) {
        guard !closed else { return resumeAll() }
        var last = recovering ? (recoveredState ?? state.value) : state.value
        if let loading, queue.indices.contains(loading) {
            last = PlayerState()
            last.currentIndex = loading
            last.queueCount = queue.count
        }
        // Requests in flight are answered once the new player has caught up (or given up).
        heldReplies += waiting.values
        waiting = [:]
        sentAt = [:]
        let now = clock.nowMs
        deaths = deaths.filter { now - $0 < Self.restartWindowMs } + [now]
        guard childReported, let index = last.currentIndex, queue.indices.contains(index) else {
            // It never started, or nothing was loaded: the next command starts a new player.
            Log.error("crate-player ended (\(reason)) \(childReported ? "with nothing loaded" : "before it answered")")
            recovering = false
            recovery += 1
            // A player that dies before it answers its first command cannot play anything.
            let problem = PlayerProcessError.endedAtStart(reason: reason)
            if last.status != .stopped {
                var stopped = last
                stopped.status = .stopped
                stopped.problem = problem.message
                state.set(stopped)
            }
            resumeHeld(failing: problem)
            return
        }
        let path = queue[index].filePath
        guard deaths.count < Self.restartLimit else {
            let problem = PlayerProcessError.keepsStopping(count: deaths.count)
            logDeath(entry: index, reason: reason, problem: problem)
            recovering = false
            recovery += 1
            var stopped = last
            stopped.status = .stopped
            stopped.problem = problem.message
            state.set(stopped)
            resumeHeld()
            return
        }
        deathsByEntry[index, default: 0] += 1
        let wasPlaying = last.status == .playing
        var target = index
        var position = last.status == .stopped && last.positionMs == 0 ? 0 : last.positionMs
        let problem: PlayerProcessError
        if deathsByEntry[index, default: 0] >= 2 {
            problem = .stoppedTwice(path: path)
            target = index + 1
            position = 0
        } else {
            problem = .restarted(path: path, reason: reason)
        }
        logDeath(entry: index, reason: reason, problem: problem)
        restarts += 1
        guard queue.indices.contains(target) else {
            // The skipped track was the last one: the queue is over.
            recovering = false
            recovery += 1
            var finished = PlayerState()
            finished.queueCount = queue.count
            finished.finishedQueue = true
            finished.problem = problem.message
            state.set(finished)
            resumeHeld()
            return
        }
        recovering = true
        recoveredState = nil
        recovery += 1
        let attempt = recovery
        Task { @MainActor in
            // If this player dies too, a newer recovery takes over and this one stops.
            _ = try? await request(.load(entries: queue.map(PlayerWire.Entry.init), index: target))
            guard attempt == recovery else { return }
            if position > 0 { _ = try? await request(.seek(positionMs: position)) }
            guard attempt == recovery else { return }
            if wasPlaying { _ = try? await request(.play) }
            guard attempt == recovery else { return }
            recovering = false
            var recovered = recoveredState ?? state.value
            recovered.problem = problem.message
            state.set(recovered)
            resumeHeld()
        }
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

    private func resumeHeld(failing error: (any Error)? = nil) {
        let held = heldReplies
        heldReplies = []
        for continuation in held { continuation.resume(returning: error) }
    }

    private func resumeAll() {
        let pending = Array(waiting.values) + heldReplies
        waiting = [:]
        sentAt = [:]
        heldReplies = []
        for continuation in pending { continuation.resume(returning: AudioPlaybackError.playerUnavailable) }
    }
}

/// One player process: its id, the pipe to its input, and a reader for its output.
private final class Child: @unchecked Sendable {
    enum Event: Sendable {
        case report(PlayerWire.Report)
        case unreadable(String)
        /// The process is gone; `reason` says how ("Aborted", "exit status 1").
        case ended(reason: String)
    }

    let pid: pid_t
    private let input: Int32
    private let lock = NSLock()
    private var inputOpen = true
    /// Why this side killed the process, if it did: its end is then told in these words.
    private var killReason: String?

    var isEnding: Bool { lock.withLock { killReason != nil } }

    /// Kills a hung player (SIGKILL stops a stopped or deadlocked process too).
    func kill(reason: String) {
        lock.withLock { killReason = reason }
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// How the process ended, in the words of the message: this side's reason when it killed it.
    func endReason(_ status: String) -> String { lock.withLock { killReason } ?? status }

    private init(pid: pid_t, input: Int32) {
        self.pid = pid
        self.input = input
    }

    /// Writes happen here, in order, never on the main thread: a player that stopped reading
    /// (hung, or stopped) would fill the pipe and block the writer until the watchdog kills it.
    private let writer = DispatchQueue(label: "crate-player requests")

    /// Sends a request; a player that is gone gets nothing (its end answers the request).
    func send(_ request: PlayerWire.Request) {
        let line = PlayerWire.encode(request)
        writer.async { [self] in
            guard lock.withLock({ inputOpen }) else { return }
            _ = LineWriter.write(line, to: input)
        }
    }

    /// Closes the player's input after the requests already sent (a healthy player then ends).
    func closeInput() {
        writer.async { [self] in
            let open = lock.withLock {
                defer { inputOpen = false }
                return inputOpen
            }
            if open { close(input) }
        }
    }

    static func spawn(executable: String, sinkDescription: String?, progressIntervalMs: Int,
                      onEvent: @escaping @Sendable (Child, Event) -> Void) throws(PlayerProcessError) -> Child {
        // Close-on-exec, so no later child (another player, a helper) holds these pipes open
        // and hides this one's end.
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard systemPipe2(&toChild, O_CLOEXEC) == 0 else { throw .couldNotStart(path: executable, errno: errno) }
        guard systemPipe2(&fromChild, O_CLOEXEC) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw .couldNotStart(path: executable, errno: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The window's threads block or ignore signals the player must get as usual.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        environment["CRATE_AUDIO_SINK"] = sinkDescription
        // A crash in the player is GStreamer's (its own message is on standard error): Swift's
        // backtracer would only hold the restart back by seconds. SWIFT_BACKTRACE set by hand wins.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let arguments = [executable, "--progress-ms", String(progressIntervalMs)]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw .couldNotStart(path: executable, errno: status)
        }
        let child = Child(pid: pid, input: toChild[1])
        let spawned = pid
        _ = LineReader(fd: fromChild[0], name: "crate-player reports", onLine: { line in
            do {
                onEvent(child, .report(try PlayerWire.decode(PlayerWire.Report.self, from: line)))
            } catch {
                onEvent(child, .unreadable(String(decoding: line.prefix(200), as: UTF8.self)))
            }
        }, onEnd: {
            child.closeInput()
            onEvent(child, .ended(reason: child.endReason(Self.reap(spawned))))
        })
        return child
    }

    /// Waits for the process (its output closed: it is ending) and says how it ended.
    private static func reap(_ pid: pid_t) -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return L10n.tr("ended") }
        }
        let signal = status & 0x7f
        if signal != 0 { return String(cString: strsignal(signal)) }
        return L10n.tr("exit status %@", (status >> 8) & 0xff)
    }
}

/// glibc's pipe2, which the Glibc module hides (it is declared only with _GNU_SOURCE): a pipe
/// made close-on-exec at once, with no moment in which another thread's spawn could inherit it.
@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
