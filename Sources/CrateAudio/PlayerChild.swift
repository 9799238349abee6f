import CrateCore
import Foundation

/// One player process: its id, the pipe to its input, and a reader for its output.
final class PlayerChild: @unchecked Sendable {
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

    private init(pid: pid_t, input: Int32) {
        self.pid = pid
        self.input = input
    }

    /// Kills a hung player (SIGKILL ends a stopped or deadlocked process too).
    func kill() { _ = Glibc.kill(pid, SIGKILL) }

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
                      onEvent: @escaping @Sendable (PlayerChild, Event) -> Void) throws(PlayerProcessError) -> PlayerChild {
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
        let child = PlayerChild(pid: pid, input: toChild[1])
        let spawned = pid
        _ = LineReader(fd: fromChild[0], name: "crate-player reports", onLine: { line in
            do {
                onEvent(child, .report(try PlayerWire.decode(PlayerWire.Report.self, from: line)))
            } catch {
                onEvent(child, .unreadable(String(decoding: line.prefix(200), as: UTF8.self)))
            }
        }, onEnd: {
            child.closeInput()
            onEvent(child, .ended(reason: Self.reap(spawned)))
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
