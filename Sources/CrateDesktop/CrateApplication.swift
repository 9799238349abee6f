import CGtk
import CrateCore
import Foundation

/// The GtkApplication: single instance, opens files, owns the window and the stores.
@MainActor
final class CrateApplication {
    let app: UnsafeMutablePointer<GtkApplication>
    private let options: LaunchOptions
    private var window: MainWindow?
    private var historyStore: HistoryStore?
    private(set) var exitStatus: Int32 = 0

    init(options: LaunchOptions) {
        self.options = options
        var flags = G_APPLICATION_HANDLES_OPEN
        if options.isDiagnosticRun { flags = GApplicationFlags(flags.rawValue | G_APPLICATION_NON_UNIQUE.rawValue) }
        app = gtk_application_new(CrateVersion.applicationID, flags)
        GSignal.connect(app, "startup") { [unowned self] in self.startup() }
        GSignal.connect(app, "activate") { [unowned self] in self.activate() }
        GSignal.connectOpen(app) { [unowned self] paths in
            self.activate()
            self.window?.receive(files: paths)
        }
    }

    func run() -> Int32 {
        let status = Gtk.withCStringArray(options.remaining) { argv in
            g_application_run(crate_gapplication(app), Int32(options.remaining.count), UnsafeMutablePointer(mutating: argv).withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: options.remaining.count + 1) { $0 })
        }
        g_object_unref(app)
        return status != 0 ? status : exitStatus
    }

    func quit(status: Int32) {
        exitStatus = status
        g_application_quit(crate_gapplication(app))
    }

    // MARK: - Private

    private func startup() {
        Stylesheet.install()
        Actions.add(to: app, "quit") { [unowned self] in self.quit(status: 0) }
        Actions.add(to: app, "about") { [unowned self] in AboutDialog.present(over: self.window?.widget) }
        Actions.add(to: app, "shortcuts") { [unowned self] in ShortcutsWindow.present(over: self.window?.widget) }
        Actions.installAccelerators(on: app)
    }

    private static func makeDetailStore(database: AppDatabase, reviewer: AlbumReviewing?) -> AlbumDetailStore {
        let lookup: AlbumDetailStore.ReviewLookup = { album in try reviewer?.cachedReview(for: album) }
        guard let reviewer, reviewer.canGenerate else {
            return AlbumDetailStore(database: database, lookupReview: lookup)
        }
        let generate: AlbumDetailStore.ReviewGenerator = { album, regenerate in
            try await reviewer.review(for: album, regenerate: regenerate)
        }
        return AlbumDetailStore(database: database, lookupReview: lookup, generateReview: generate)
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        let window = MainWindow(application: app)
        self.window = window
        do {
            let database = try AppDatabase.open(paths: CratePaths())
            let paths = CratePaths()
            let history = HistoryStore(database: database)
            historyStore = history
            let library = LibraryStore(database: database)
            let settings: Settings
            do {
                settings = try Settings.load(paths: paths)
            } catch {
                settings = Settings()
                window.banner.show((error as? LocalizedError)?.errorDescription ?? "\(error)", isError: true)
            }
            let services = LiveServices.make(settings: settings, keys: KeyStore(paths: paths), database: database)
            let detail = Self.makeDetailStore(database: database, reviewer: services.reviewer)
            window.attach(library: library, history: history, detail: detail, database: database)
            let player = LogPlayer(clock: LivePlaybackClock(), log: PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths)))
            let trackLists = services.musicBrainz.map { TrackListProvider.musicBrainz($0, database: database) } ?? .unavailable
            window.attachPlayback(PlaybackStore(database: database, player: player, trackLists: trackLists))
            window.attachScanning(ScanStore(scanner: ScanPipeline(database: database, paths: paths, services: services)))
            if let page = options.page { window.showPage(page) }
            if let id = options.playAlbumID {
                Task {
                    await library.reload()
                    window.play(albumID: id, track: nil)
                }
            }
            if let id = options.albumID {
                library.select(albumID: id)
                let tab = options.tab
                Task {
                    await detail.show(albumID: id)
                    if let tab { window.detailPane?.showTab(tab) }
                }
            }
        } catch {
            let message = (error as? CrateError)?.message ?? error.localizedDescription
            Log.error(message)
            window.showLibraryError(message)
        }
        window.present()
        if options.selfTest { SelfTest.start(app: self, window: window) }
        if let path = options.screenshotPath { Screenshot.capture(window: window.widget, to: path, delay: options.screenshotDelay) { [unowned self] ok in self.quit(status: ok ? 0 : 1) } }
    }
}
