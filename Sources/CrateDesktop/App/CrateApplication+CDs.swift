import CGtk
import CrateAudio
import CrateCore
import Foundation

extension CrateApplication {
    func attachCDs(to window: MainWindow, model: AppModel, player: any Player, playerProblem: String?) {
        let folders: @MainActor () -> [String] = { [weak model] in
            guard let model else { return [] }
            return MusicFolders.resolve(settings: model.services.settings, environment: model.environment.variables)
        }
        // The music folders are indexed at start and watched while the window is open.
        let index = MusicIndexStore(database: model.environment.database)
        let monitor = MusicFolderMonitor(store: index, folders: folders, stateDirectory: model.environment.paths.stateDirectory)
        window.musicFolders = monitor
        GObjectScope.of(window.widget).connect(window.widget, "destroy") { monitor.stop() }
        // Indexing compares every crate album with the files: after the first page is up.
        window.startup.later("music folders") { monitor.start() }
        let store = CDsStore(database: model.environment.database, folders: folders, formats: {
            AudioFormatSupport.check(hasElement: GStreamerRuntime.hasElement)
        }, artwork: ArtworkCache(paths: model.environment.paths))
        window.attachCDs(store, playerText: Self.describePlayer(player, problem: playerProblem)) { [weak self] in
            self?.mpris?.statusText ?? L10n.tr("Not started")
        }
    }

    static func describePlayer(_ player: any Player, problem: String?) -> String {
        let environment = ProcessInfo.processInfo.environment
        if player is PlayerProcess {
            let sink = environment["CRATE_AUDIO_SINK"].flatMap { $0.isEmpty ? nil : $0 }
            return L10n.tr("GStreamer in its own process (crate-player), gapless (sink: %@)", sink.map { L10n.tr("%@, from CRATE_AUDIO_SINK", $0) } ?? L10n.tr("the default audio device"))
        }
        if let problem { return L10n.tr("Simulated (no sound): GStreamer could not start. %@", problem) }
        return L10n.tr("Simulated (no sound): CRATE_PLAYER=log")
    }

    /// Preferences' Music page; a change of folders re-indexes them and moves the watches.
    func addMusicPage(to preferences: PreferencesWindow, store: PreferencesStore) {
        let monitor = window?.musicFolders
        let page = MusicFoldersPage(store: store.music, index: monitor?.store)
        store.music.onFoldersChanged = { [weak monitor] in monitor?.foldersChanged() }
        let player = model?.playback.player as? PlayerProcess
        store.music.onReplayGainChanged = { [weak player] mode in player?.replayGain = mode }
        adw_preferences_window_add(crate_preferences_window(preferences.widget), crate_preferences_page(page.widget))
    }
}
