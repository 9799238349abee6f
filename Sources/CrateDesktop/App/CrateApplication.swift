import CGtk
import CrateCore
import Foundation

/// The application (an AdwApplication): single instance, opens files, owns the window and the stores.
@MainActor
final class CrateApplication {
    let app: UnsafeMutablePointer<GtkApplication>
    let options: LaunchOptions
    var window: MainWindow?
    /// The composition root; nil when the library could not be opened.
    var model: AppModel?
    let paths = CratePaths()
    var preferencesWindow: PreferencesWindow?
    /// Media keys and GNOME Shell's controls (MPRIS 2 on the session bus).
    var mpris: MprisService?
    private(set) var exitStatus: Int32 = 0
    /// Called with each Preferences window shown (the test hooks follow it).
    var onPreferences: ((PreferencesWindow) -> Void)?

    init(options: LaunchOptions) {
        self.options = options
        var flags = G_APPLICATION_HANDLES_OPEN
        if options.isDiagnosticRun { flags = GApplicationFlags(flags.rawValue | G_APPLICATION_NON_UNIQUE.rawValue) }
        // An AdwApplication: it initialises libadwaita (its stylesheet and the style manager that
        // follows the desktop's light/dark preference) at startup.
        app = UnsafeMutableRawPointer(adw_application_new(CrateVersion.applicationID, flags)!).assumingMemoryBound(to: GtkApplication.self)
        let scope = GObjectScope.of(app)
        scope.connect(app, "startup") { [unowned self] in self.startup() }
        scope.connect(app, "activate") { [unowned self] in self.activate() }
        scope.connectOpen { [unowned self] paths in
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
        StartupTiming.mark("GTK started")
        WindowTestHooks.observeWidgetsIfEnabled()
        Stylesheet.install()
        Actions.add(to: app, "quit") { [unowned self] in self.quit(status: 0) }
        Actions.add(to: app, "about") { [unowned self] in AboutDialog.present(over: self.window?.widget) }
        Actions.add(to: app, "shortcuts") { [unowned self] in ShortcutsWindow.present(over: self.window?.widget) }
        Actions.add(to: app, "preferences") { [unowned self] in self.presentPreferences() }
        Actions.installAccelerators(on: app)
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        let window = MainWindow(application: app)
        self.window = window
        StartupTiming.mark("window built")
        do {
            try openLibrary(in: window)
        } catch {
            let message = UserMessage.text(for: error)
            Log.error(message)
            window.showLibraryError(message)
        }
        window.present()
        if shouldShowFirstRun, let model { window.showWelcome(store: model.makePreferences()) }
        applyLaunchOptions(to: window)
    }
}
