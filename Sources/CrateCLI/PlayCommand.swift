import ArgumentParser
import CrateAudio
import CrateCore
import CrateLive
import Foundation

/// `crate play`: plays an album's files from the music folder through GStreamer, or (with
/// `--simulate`/`--simulate-seconds`) runs the log player on a simulated clock.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an album (and the grid after it) from your music folder and print the playback log.",
        discussion: """
        The album's files come from the music folder index (`crate music scan`); an album with no \
        files says "Not in your music folder". CRATE_AUDIO_SINK sets the GStreamer sink (for \
        example "fakesink sync=true" on a machine with no sound card). With --simulate or \
        --simulate-seconds nothing is heard: the log player walks simulated time through the \
        track lists instead. Either way one JSON line per command and state change goes to \
        playback.log in Crate's state directory ($XDG_STATE_HOME/crate, or CRATE_STATE_DIR), and is printed here.
        """
    )

    @Argument(help: "The album's id (as in `crate history --json`).")
    var albumID: Int64

    @Option(name: .customLong("from-grid"), help: ArgumentHelp("Album ids of the grid it was played from, in order, comma-separated. Playback continues with the albums after it.", valueName: "ID,ID,…"), transform: { try PlayCommand.parseIDs($0) })
    var fromGrid: [Int64]?

    @Option(name: .customLong("simulate-seconds"), help: "Simulate instead of playing, and stop after this many seconds of simulated playback.")
    var simulateSeconds: Int?

    @Flag(help: "Simulate the whole queue on the log player instead of playing files.")
    var simulate = false

    func validate() throws {
        try OptionRange.checkAlbumID(albumID)
        if let simulateSeconds {
            try OptionRange.check(simulateSeconds, in: OptionRange.simulateSeconds, name: "--simulate-seconds")
        }
    }

    func run() async throws {
        let paths = CratePaths()
        let database: AppDatabase
        let grid: GridContext?
        do {
            database = try openDatabase(paths: paths)
            guard try database.album(id: albumID) != nil else { throw PlaybackError.albumNotFound(albumID) }
            if let fromGrid {
                guard let context = GridContext(albumIDs: fromGrid, tapped: albumID) else {
                    throw PlaybackError.albumNotInGrid(albumID)
                }
                grid = context
            } else {
                grid = nil
            }
        } catch {
            throw fail(error)
        }
        // `validate()` keeps the seconds within a year, so the milliseconds cannot overflow.
        // Albums saved without their track list (a failed or interrupted lookup) get it from
        // MusicBrainz now; with settings that cannot be read, only the library's lists play.
        let trackLists = (try? AppEnvironment.live(database: database, paths: paths).services().trackLists) ?? .unavailable
        if !simulate && simulateSeconds == nil {
            let played = await Self.playFiles(albumID: albumID, grid: grid, database: database, paths: paths)
            if !played { throw ExitCode(1) }
            return
        }
        let failure = await Self.simulate(albumID: albumID, grid: grid, limitMs: simulateSeconds.map { $0 * 1000 }, database: database, paths: paths,
                                          trackLists: trackLists)
        if failure != nil { throw ExitCode(1) }
    }

    /// Plays on the simulated clock, printing the log; returns why nothing played, if nothing did.
    @MainActor
    private static func simulate(albumID: Int64, grid: GridContext?, limitMs: Int?, database: AppDatabase, paths: CratePaths,
                                 trackLists: TrackListProvider) async -> String? {
        let log = PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths))
        log.onLine = { print($0) }
        let simulator = PlaybackSimulator(database: database, log: log, trackLists: trackLists)
        var messages: [String] = []
        var skipped: [Int64] = []
        let token = simulator.store.state.subscribe { state in
            for id in state.skippedAlbumIDs where !skipped.contains(id) { skipped.append(id) }
            // The album asked for had nothing to play: named like the skipped ones.
            if let id = state.refusedAlbumID, !skipped.contains(id) { skipped.append(id) }
            if let message = state.message, messages.last != message { messages.append(message) }
        }
        await simulator.run(albumID: albumID, grid: grid, limitMs: limitMs)
        token.cancel()
        // Say which albums were skipped; the store's message alone does not name them (the name is a
        // courtesy: if it cannot be read, the id is enough).
        let noTrackList = PlaybackError.noTrackList(albumID: 0).message
        for id in skipped {
            let album = (try? database.album(id: id)).flatMap { $0 }
            let name = album.map { " (\(Terminal.field($0.artist)) — \(Terminal.field($0.title)))" } ?? ""
            Terminal.warn("album \(id)\(name) skipped: \(Self.whyNoTracks(album, id: id))")
        }
        let named = Set(skipped.map { Self.whyNoTracks((try? database.album(id: $0)).flatMap { $0 }, id: $0) })
        for message in messages where message != noTrackList && !named.contains(message) {
            Terminal.warn(message)
        }
        if let problem = log.writeError {
            Terminal.warn(problem)
        }
        // Playing nothing at all is a failure; skipping some albums is not.
        return log.lines.contains { $0.contains("\"state\":\"playing\"") } ? nil : (messages.last ?? PlaybackError.nothingToPlay.message)
    }

    /// Plays the files through GStreamer until the queue (and the grid) ends; false if nothing played.
    @MainActor
    private static func playFiles(albumID: Int64, grid: GridContext?, database: AppDatabase, paths: CratePaths) async -> Bool {
        let log = PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths))
        log.onLine = { print($0) }
        let player: PlayerProcess
        do {
            // GStreamer runs in the player process; its plugin is looked for here so a missing one is said at once.
            try PluginLoader.locate(.gstreamer)
            player = PlayerProcess(log: log, executable: try PlayerProcess.locate(),
                                   sinkDescription: ProcessInfo.processInfo.environment["CRATE_AUDIO_SINK"])
            player.replayGain = (try? Settings.load(paths: paths))?.replayGain ?? .default
        } catch {
            Terminal.warn(UserMessage.text(for: error))
            return false
        }
        defer { player.close() }
        let store = PlaybackStore(database: database, player: player, albumFiles: .musicFolder(database))
        var shown: [String] = []
        let token = store.state.subscribe { state in
            if let message = state.message, shown.last != message {
                shown.append(message)
                Terminal.warn(message)
            }
        }
        defer { token.cancel() }
        await store.play(albumID: albumID, grid: grid)
        // Done when the player is stopped with nothing left to start (a finished queue may be
        // followed by the grid's next batch, which `settle` waits for).
        while true {
            await store.settle()
            if player.state.value.status == .stopped, !store.state.value.isPreparingQueue { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        if let problem = log.writeError { Terminal.warn(problem) }
        return log.lines.contains { $0.contains("\"state\":\"playing\"") }
    }

    /// Says whether the track list is still on its way or was given up on, not just missing.
    private static func whyNoTracks(_ album: Album?, id: Int64) -> String {
        switch album?.tracksStatus {
        case .pending: return PlaybackError.trackListPending(albumID: id).message
        case .failed: return PlaybackError.trackListFailed(albumID: id).message
        default: return PlaybackError.noTrackList(albumID: id).message
        }
    }

    static func parseIDs(_ text: String) throws -> [Int64] {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let ids = parts.compactMap(Int64.init)
        guard !ids.isEmpty, ids.count == parts.count, ids.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--from-grid takes album ids (whole numbers from 1 up) separated by commas, like 3,7,12.")
        }
        return ids
    }
}
