import CGtk
import CrateCore
import Foundation

extension CrateApplication {
    /// "Scan photos that arrive in…": watched while the window is open and the setting is on,
    /// with one toast per run of arrivals (docs/decisions/0041-watched-photo-folder.md).
    func attachPhotoFolder(to window: MainWindow, model: AppModel) {
        let monitor = model.makePhotoFolderMonitor()
        window.photoFolder = monitor
        monitor.onEvent = { WidgetEvents.say($0) }
        monitor.lastRun.subscribe { [weak window] run in
            guard let run, let window else { return }
            window.toasts.show(run.text, seconds: 4)
        }.store(in: &window.photoFolderTokens)
        GObjectScope.of(window.widget).connect(window.widget, "destroy") { monitor.stop() }
        // After the first page, like the music folders.
        window.startup.later("photo folder") { monitor.settingsChanged() }
    }

    /// Preferences' Photos page; a change starts, moves or stops the watch.
    func addPhotosPage(to preferences: PreferencesWindow, store: PreferencesStore) {
        let monitor = window?.photoFolder
        let page = PhotoFolderPage(store: store.photos)
        store.photos.onChanged = { [weak monitor] in monitor?.settingsChanged() }
        // Each run may set photos aside: the page's list is read again.
        if let token = monitor?.lastRun.subscribe({ [weak photos = store.photos] _ in Task { await photos?.refreshSetAside() } }) {
            GObjectScope.of(page.widget).keepAlive(token)
        }
        adw_preferences_window_add(crate_preferences_window(preferences.widget), crate_preferences_page(page.widget))
    }
}
