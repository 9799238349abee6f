import CrateCore
import Foundation

/// The player process's side (`crate-player`): a `GStreamerPlayer` driven by requests on standard
/// input, its state, log lines and replies written to standard output.
///
/// GStreamer runs here, not in the window: playbin 1.22 can abort on a damaged file (an assertion
/// inside its own switch to the next file, docs/reliability.md #23), and that must cost the
/// window a restarted player, not the window. The process ends when its input closes: the window
/// quit, or died (the kernel closes a dead process's pipes), even if playbin hangs here.
@MainActor
public final class PlayerHost {
    private let player: GStreamerPlayer
    private let output: Int32
    private var stateToken: ObservationToken?
    /// The request being carried out: the next one waits for it (requests run one at a time, in order).
    private var previous: Task<Void, Never>?

    /// `sinkDescription` is `CRATE_AUDIO_SINK`; the pipeline is built at the first `load`.
    public init(sinkDescription: String?, progressIntervalMs: Int, output: Int32 = STDOUT_FILENO) throws {
        self.output = output
        let log = PlaybackLog(fileURL: nil)
        player = try GStreamerPlayer(log: log, sinkDescription: sinkDescription, progressIntervalMs: progressIntervalMs, deferred: true)
        log.onAppend = { [weak self] line in self?.send(.log(line)) }
        stateToken = player.state.subscribe { [weak self] state in
            self?.send(.state(PlayerWire.State(state)))
        }
    }

    /// Reads requests from `input` until it closes, then stops the pipeline and exits.
    public func run(input: Int32 = STDIN_FILENO) {
        _ = LineReader(fd: input, name: "crate-player requests", onLine: { line in
            DispatchQueue.main.async { MainActor.assumeIsolated { self.receive(line) } }
        }, onEnd: {
            // A main thread stuck inside playbin never runs the tidy exit: end anyway.
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { _exit(0) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.player.close() }
                exit(0)
            }
        })
    }

    private func receive(_ line: Data) {
        guard let request = try? PlayerWire.decode(PlayerWire.Request.self, from: line) else {
            Log.error("crate-player: a request it cannot read: \(String(decoding: line.prefix(200), as: UTF8.self))")
            // Answered all the same (a window and a player of different versions): unanswered,
            // the window would take this player for a hung one.
            if let id = (try? PlayerWire.decode(PlayerWire.RequestID.self, from: line))?.id {
                send(.reply(id: id, failure: .other(message: L10n.tr("Crate's player could not read a command (is it another version of Crate?)."))))
            }
            return
        }
        // One request at a time, in order: each waits for the one before to have answered.
        let before = previous
        previous = Task { @MainActor in
            await before?.value
            var failure: PlayerWire.Failure?
            do {
                try await perform(request.command)
            } catch {
                failure = PlayerWire.Failure(error)
            }
            send(.reply(id: request.id, failure: failure))
        }
    }

    private func perform(_ command: PlayerWire.Command) async throws {
        switch command {
        case .load(let entries, let index): try await player.load(entries.map(\.queueEntry), startingAt: index)
        case .play: try await player.play()
        case .pause: await player.pause()
        case .stop: await player.stop()
        case .seek(let positionMs): await player.seek(toMs: positionMs)
        case .next: await player.next()
        case .previous: await player.previous()
        case .volume(let volume): player.volume = volume
        case .replayGain(let mode): player.replayGain = mode
        }
    }

    private func send(_ report: PlayerWire.Report) {
        // The window is gone: nothing is listening, so nothing is left to play for.
        if !LineWriter.write(PlayerWire.encode(report), to: output) {
            player.close()
            exit(0)
        }
    }
}
