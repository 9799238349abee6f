import ArgumentParser
import CrateCore
import Foundation

/// `crate spin ALBUM_ID [--side B]`: the record on the turntable. Crate hears nothing: it follows
/// the release's track list on the clock, says what is playing now and sends each track as a
/// listen when its time has passed; at the end of a side it waits for the record to be turned.
struct SpinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spin",
        abstract: "Follow a record on your turntable and send its tracks as listens.",
        discussion: """
        Start it as the needle drops. Nothing plays through the speakers. Sides come from the \
        vinyl positions of the track list (A1, A2, B1, …), else from its media. At the end of a \
        side Crate waits: press Enter once the record is turned over (or run `crate spin ID --side B` \
        later). While it runs: p pauses or resumes, n skips to the next track, q stops. With \
        --simulate the side is walked at once and nothing is sent.
        """
    )

    @Argument(help: "The album's id (as in `crate history --json`).")
    var albumID: Int64

    @Option(help: "The side to start with (A, B, … or the disc number).")
    var side: String?

    @Flag(help: "Walk the side at once on a simulated clock; no listen is sent.")
    var simulate = false

    func validate() throws {
        try OptionRange.checkAlbumID(albumID)
    }

    func run() async throws {
        let environment: AppEnvironment
        let album: Album
        let tracks: [Track]
        let reporter: ListenReporter?
        do {
            environment = try openEnvironment()
            guard let found = try environment.database.album(id: albumID) else { throw PlaybackError.albumNotFound(albumID) }
            album = found
            tracks = try environment.database.tracks(forAlbum: albumID)
            reporter = simulate ? nil : ListenReporter(database: environment.database,
                                                       submitters: ListenSubmitters.live(environment: environment, settings: try environment.settings()))
        } catch {
            throw fail(error)
        }
        if let reporter, reporter.submitters.isEmpty {
            Terminal.warn("No listen service is on, so nothing is sent (crate listens enable listenbrainz|lastfm).")
        }
        let ok = await Self.spin(album: album, tracks: tracks, side: side, simulate: simulate, reporter: reporter)
        if !ok { throw ExitCode(1) }
    }

    @MainActor
    private static func spin(album: Album, tracks: [Track], side: String?, simulate: Bool, reporter: ListenReporter?) async -> Bool {
        let manual = simulate ? ManualPlaybackClock() : nil
        let clock: PlaybackClock = manual ?? LivePlaybackClock()
        var sending: Task<Void, Never>?
        let session = TurntableSession(album: album, tracks: tracks, clock: clock) { event in
            switch event {
            case .playingNow(let track): Terminal.say("▶ \(Terminal.field(track.trackNumber ?? "")) \(Terminal.field(track.title))")
            case .listen(let track, _): Terminal.say("  ✓ listened: \(Terminal.field(track.title))")
            }
            guard let reporter else { return }
            // In order, one after the other: a listen is queued before the next is announced.
            let previous = sending
            sending = Task { await previous?.value; await reporter.handle(event) }
        }
        do {
            try session.start(side: side)
        } catch {
            Terminal.warn(UserMessage.text(for: error))
            return false
        }
        let interactive = !simulate && isatty(STDIN_FILENO) != 0
        if interactive { listen(to: session) }
        var prompted = false
        loop: while true {
            switch session.state.value {
            case .playing:
                prompted = false
                if let manual {
                    guard let next = manual.nextDeadline else { break loop }
                    manual.advance(toMs: next)
                } else {
                    try? await Task.sleep(for: .milliseconds(200))
                }
            case .sideFinished(let finished, let next):
                guard interactive, let next else {
                    Terminal.say("Side \(finished) is over. Turn the record over and run `crate spin \(album.id ?? 0) --side \(next ?? "")`.")
                    break loop
                }
                if !prompted { Terminal.say("Side \(finished) is over. Turn the record over and press Enter for side \(next) (q stops).") }
                prompted = true
                try? await Task.sleep(for: .milliseconds(200))
            case .finished, .stopped, .idle:
                break loop
            }
        }
        await sending?.value
        return true
    }

    /// Keys typed while the record spins: Enter flips at a side's end, p pauses, n skips, q stops.
    @MainActor
    private static func listen(to session: TurntableSession) {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let reader = Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        reader.start()
        Task { @MainActor in
            for await line in lines {
                switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                case "q": session.stop()
                case "n": session.skip()
                case "p":
                    if case .playing(_, _, true) = session.state.value { session.resume() } else { session.pause() }
                case "":
                    if case .sideFinished = session.state.value { try? session.flip() }
                default: Terminal.warn("Type p (pause), n (next track), q (stop), or Enter at a side's end.")
                }
            }
        }
    }
}
