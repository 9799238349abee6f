import CGtk
import CrateAudio
import CrateCore
import CrateLive
import Foundation

/// Opening the library, building the app model from it, and Preferences.
extension CrateApplication {
    func openLibrary(in window: MainWindow) throws {
        // The whole-file damage check runs once the first page is up (see verifyLibrary).
        let database = try AppDatabase.open(paths: paths, integrityCheck: .deferred)
        StartupTiming.mark("library opened")
        let (player, playerProblem) = Self.makePlayer(paths: paths)
        StartupTiming.mark("player made")
        let model = AppModel(environment: .live(database: database, paths: paths), player: player)
        StartupTiming.mark("app model built")
        self.model = model
        // Real playback plays files from the music folder; the log player plays track lists.
        if player is PlayerProcess {
            model.playback.albumFiles = .musicFolder(database)
            model.detail.albumFiles = .musicFolder(database)
            model.artistDetail.albumFiles = .musicFolder(database)
        }
        if let problem = model.settingsProblem { window.banner.show(problem, isError: true) }
        if let playerProblem { window.banner.show(playerProblem, isError: true) }
        window.attach(model: model, database: database)
        // The log-backed stand-in makes no sound: the pane says so while it is in use.
        window.attachPlayback(model.playback, simulated: (player as any Player) is LogPlayer)
        TurntableController.install(on: window, model: model)
        let mpris = MprisService(store: model.playback, turntable: model.turntable, artworkDirectory: TextureCache.artworkDirectory)
        mpris.onRaise = { [weak window] in window?.present() }
        mpris.onQuit = { [unowned self] in self.quit(status: 0) }
        mpris.start()
        self.mpris = mpris
        window.attachScanning(model.scans, model: model)
        window.attachWall(model.wall, detail: model.wallDetail, genres: model.genres)
        attachCDs(to: window, model: model, player: player, playerProblem: playerProblem)
        attachPhotoFolder(to: window, model: model)
        attachCollectionSync(to: window, model: model)
        window.attachArtists(model.artists, detail: model.artistDetail, thumbnails: { [weak model] in model?.services.thumbnailFiles() },
                             coverArt: model.services.settings.endpoints.coverArtArchive)
        WindowTestHooks.installIfEnabled(on: window, app: self)
        StartupTiming.mark("stores attached; loading the crate")
        model.start(deferringBackgroundWork: true)
        StartupTiming.mark("stores started")
        window.startup.later("background work") { [weak model] in model?.startBackgroundWork() }
        window.startup.later("integrity check") { [weak window] in
            guard let window else { return }
            Self.verifyLibrary(database, in: window)
        }
    }

    /// Reads the whole library file for damage in the background (docs/reliability.md #3); on
    /// damage the window says so and keeps saying it (nothing more is written; the next start
    /// moves the file aside).
    static func verifyLibrary(_ database: AppDatabase, in window: MainWindow) {
        Task { @MainActor [weak window] in
            let started = Date()
            // On a thread of its own: reading a 50 000-album file would hold one of the task pool's
            // two threads while the first page loads.
            let result = try? await BlockingWork.run { database.verifyIntegrity() }
            StartupTiming.mark("integrity check done (\(Int(Date().timeIntervalSince(started) * 1000)) ms)")
            guard case .damaged(let message)? = result, let window else { return }
            window.banner.show(message, isError: true)
        }
    }

    /// GStreamer in the player process (the sink from `CRATE_AUDIO_SINK`, else the sound card);
    /// `CRATE_PLAYER=log`, or a player that cannot be found, gives the log player, which plays no
    /// audio. The player process starts at the first album played, not here (the window's first
    /// frame does not wait for it); only its presence and the playback plugin's are checked now,
    /// so a missing one is said at once.
    static func makePlayer(paths: CratePaths) -> (any Player, String?) {
        let environment = ProcessInfo.processInfo.environment
        let log = PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths))
        if environment["CRATE_PLAYER"] != "log" {
            do {
                try PluginLoader.locate(.gstreamer)
                let executable = try PlayerProcess.locate(environment: environment)
                let player = PlayerProcess(log: log, executable: executable, sinkDescription: environment["CRATE_AUDIO_SINK"])
                // A settings file Crate cannot read is said elsewhere; playback keeps the default.
                player.replayGain = (try? Settings.load(paths: paths, environment: environment))?.replayGain ?? .default
                return (player, nil)
            } catch {
                return (LogPlayer(clock: LivePlaybackClock(), log: log), UserMessage.text(for: error))
            }
        }
        return (LogPlayer(clock: LivePlaybackClock(), log: log), nil)
    }

    /// True on a first run: no settings file, no provider from the environment, no key stored
    /// for any provider. `--welcome` forces it (screenshots).
    var shouldShowFirstRun: Bool {
        if options.showWelcome { return model != nil }
        guard !options.isDiagnosticRun, let model else { return false }
        let environment = ProcessInfo.processInfo.environment
        let keys = model.environment.keys
        return !FileManager.default.fileExists(atPath: paths.settingsURL.path)
            && (environment["CRATE_PROVIDER"] ?? "").isEmpty
            && keys.source(for: .anthropic) == .missing && keys.source(for: .openai) == .missing
    }

    func presentPreferences() {
        guard let model else {
            window?.banner.show(L10n.tr("Preferences are unavailable until the library opens."), isError: true)
            return
        }
        let store = model.makePreferences()
        let preferences = PreferencesWindow(parent: window?.widget, store: store)
        addMusicPage(to: preferences, store: store)
        addPhotosPage(to: preferences, store: store)
        let collection = MusicBrainzCollectionPage(store: store.musicBrainzCollection)
        adw_preferences_window_add(crate_preferences_window(preferences.widget), crate_preferences_page(collection.widget))
        preferences.collectionPage = collection
        preferencesWindow = preferences
        onPreferences?(preferences)
        preferences.present()
    }

    func applyLaunchOptions(to window: MainWindow) {
        if let page = options.page { window.showPage(page) }
        if options.showPreferences { presentPreferences() }
        if options.showDropOverlay { window.dropOverlay.setVisible(true) }
        if let id = options.playAlbumID, let library = model?.library {
            // Plays once the crate has loaded (the grid's order decides what follows); the store
            // loads itself from the database, so this waits for it rather than reloading it.
            var played = false
            var token: ObservationToken?
            token = library.state.subscribe(initial: true) { [weak window] state in
                guard case .loaded = state.phase, !played else { return }
                played = true
                token = nil
                window?.play(albumID: id, track: nil)
            }
            if played { token = nil }
        }
        if let id = options.albumID, let model {
            model.library.select(albumID: id)
            let tab = options.tab
            Task {
                await model.detail.show(albumID: id)
                if let tab { window.crate.pane?.showTab(tab) }
            }
        }
        if options.selfTest { SelfTest.start(app: self, window: window) }
        if let cycles = options.windowCycles { WindowCycleTest.start(app: self, cycles: cycles) }
        if let path = options.screenshotPath {
            Screenshot.capture(window: options.showPreferences ? preferencesWindow?.widget ?? window.widget : window.widget, to: path, delay: options.screenshotDelay) { [unowned self] ok in
                self.quit(status: ok ? 0 : 1)
            }
        }
    }
}
