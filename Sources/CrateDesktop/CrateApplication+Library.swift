import CGtk
import CrateCore
import CrateLive
import Foundation

/// Opening the library, building the app model from it, and Preferences.
extension CrateApplication {
    func openLibrary(in window: MainWindow) throws {
        let database = try AppDatabase.open(paths: paths)
        StartupTiming.mark("library opened")
        let player = LogPlayer(clock: LivePlaybackClock(), log: PlaybackLog(fileURL: PlaybackLog.defaultURL(paths: paths)))
        let model = AppModel(environment: .live(database: database, paths: paths), player: player)
        self.model = model
        if let problem = model.settingsProblem { window.banner.show(problem, isError: true) }
        window.attach(library: model.library, history: model.history, detail: model.detail, database: database)
        window.attachPlayback(model.playback)
        window.attachScanning(model.scans, model: model)
        window.wallPage.attach(model.wall)
        StartupTiming.mark("stores attached; loading the crate")
        model.start()
    }

    /// True on a first run: no settings file, no provider from the environment.
    var shouldShowFirstRun: Bool {
        guard !options.isDiagnosticRun || options.showPreferences else { return options.showPreferences }
        let environment = ProcessInfo.processInfo.environment
        return !FileManager.default.fileExists(atPath: paths.settingsURL.path)
            && (environment["CRATE_PROVIDER"] ?? "").isEmpty && model != nil
    }

    func presentPreferences(firstRun: Bool) {
        guard let model else {
            window?.banner.show("Preferences are unavailable until the library opens.", isError: true)
            return
        }
        let preferences = PreferencesWindow(parent: window?.widget, store: model.makePreferences(), firstRun: firstRun)
        preferencesWindow = preferences
        preferences.present()
    }

    func applyLaunchOptions(to window: MainWindow) {
        if let page = options.page { window.showPage(page) }
        if options.showDropOverlay { window.dropOverlay.setVisible(true) }
        if let id = options.playAlbumID {
            Task {
                await model?.library.reload()
                window.play(albumID: id, track: nil)
            }
        }
        if let id = options.albumID, let model {
            model.library.select(albumID: id)
            let tab = options.tab
            Task {
                await model.detail.show(albumID: id)
                if let tab { window.detailPane?.showTab(tab) }
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
