import CGtk
import CrateCore
import Foundation

/// Opening the library, building the services from settings, and Preferences.
extension CrateApplication {
    func openLibrary(in window: MainWindow) throws {
        let database = try AppDatabase.open(paths: paths)
        StartupTiming.mark("library opened")
        self.database = database
        let history = HistoryStore(database: database)
        let library = LibraryStore(database: database)
        libraryStore = library
        let (services, _) = makeServices(database: database, window: window)
        let detail = AlbumDetailStore(database: database)
        detailStore = detail
        configure(detail, reviewer: services.reviewer)
        window.attach(library: library, history: history, detail: detail, database: database)
        let player = LogPlayer(clock: LivePlaybackClock(), log: PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths)))
        let trackLists = services.musicBrainz.map { TrackListProvider.musicBrainz($0, database: database) } ?? .unavailable
        window.attachPlayback(PlaybackStore(database: database, player: player, trackLists: trackLists))
        // Dropped files wait in the library's queue until their scan is saved, so a killed session
        // hands them to the next one.
        let pipeline = ScanPipeline(database: database, paths: paths, services: services)
        let queued = QueuedScanner(queue: BatchQueue(database: database), scanner: pipeline)
        queuedScanner = queued
        let scans = ScanStore(scanner: queued)
        // Artwork a killed or failed scan never got is fetched again in the background; the grid
        // refreshes itself when the albums are updated.
        Task { await pipeline.repairArtwork() }
        scanStore = scans
        window.attachScanning(scans, queue: queued)
        StartupTiming.mark("stores attached")
        do {
            let unfinished = try queued.unfinishedFiles().filter { FileManager.default.fileExists(atPath: $0.path) }
            if !unfinished.isEmpty { scans.scan(files: unfinished) }
        } catch {
            Log.error("could not read the scan queue: \(error.localizedDescription)")
        }
    }

    /// The keys: Secret Service first when a session bus offers one, else environment and files.
    var keyStore: KeyStore {
        KeyStore(paths: paths, secrets: SecretServiceBackend.ifAvailable())
    }

    /// True on a first run: no settings file, no provider from the environment.
    var shouldShowFirstRun: Bool {
        guard !options.isDiagnosticRun || options.showPreferences else { return options.showPreferences }
        let environment = ProcessInfo.processInfo.environment
        return !FileManager.default.fileExists(atPath: paths.settingsURL.path)
            && (environment["CRATE_PROVIDER"] ?? "").isEmpty && database != nil
    }

    func presentPreferences(firstRun: Bool) {
        let settings = (try? Settings.load(paths: paths)) ?? Settings()
        let preferences = PreferencesWindow(parent: window?.widget, paths: paths, keys: keyStore, settings: settings, firstRun: firstRun)
        preferences.onSaved = { [weak self] in self?.applySettings() }
        preferencesWindow = preferences
        preferences.present()
    }

    /// Rebuilds the services after Preferences changed; the next scan uses them.
    func applySettings() {
        guard let database, let window else { return }
        let (services, _) = makeServices(database: database, window: window)
        let queued = QueuedScanner(queue: BatchQueue(database: database), scanner: ScanPipeline(database: database, paths: paths, services: services))
        queuedScanner = queued
        window.scanQueue = queued
        scanStore?.replaceScanner(queued)
        if let detailStore { configure(detailStore, reviewer: services.reviewer) }
    }

    func applyLaunchOptions(to window: MainWindow) {
        if let page = options.page { window.showPage(page) }
        if options.showDropOverlay { window.dropOverlay.setVisible(true) }
        if let id = options.playAlbumID {
            Task {
                await libraryStore?.reload()
                window.play(albumID: id, track: nil)
            }
        }
        if let id = options.albumID, let detailStore {
            libraryStore?.select(albumID: id)
            let tab = options.tab
            Task {
                await detailStore.show(albumID: id)
                if let tab { window.detailPane?.showTab(tab) }
            }
        }
        if options.selfTest { SelfTest.start(app: self, window: window) }
        if let path = options.screenshotPath {
            Screenshot.capture(window: options.showPreferences ? preferencesWindow?.widget ?? window.widget : window.widget, to: path, delay: options.screenshotDelay) { [unowned self] ok in
                self.quit(status: ok ? 0 : 1)
            }
        }
    }

    // MARK: - Private

    private func makeServices(database: AppDatabase, window: MainWindow) -> (ScanPipeline.Services, Settings) {
        let settings: Settings
        do {
            settings = try Settings.load(paths: paths)
        } catch {
            settings = Settings()
            window.banner.show((error as? LocalizedError)?.errorDescription ?? "\(error)", isError: true)
        }
        return (LiveServices.make(settings: settings, keys: keyStore, database: database), settings)
    }

    private func configure(_ detail: AlbumDetailStore, reviewer: AlbumReviewing?) {
        let lookup: AlbumDetailStore.ReviewLookup = { album in try reviewer?.cachedReview(for: album) }
        guard let reviewer, reviewer.canGenerate else {
            detail.configure(lookupReview: lookup, generateReview: nil)
            return
        }
        detail.configure(lookupReview: lookup, generateReview: { album, regenerate in
            try await reviewer.review(for: album, regenerate: regenerate)
        })
    }
}
