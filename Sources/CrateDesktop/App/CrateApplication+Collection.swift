import CGtk
import CrateCore
import Foundation

extension CrateApplication {
    /// The automatic sync with the MusicBrainz collection (at most every few hours, started with
    /// the background work): a toast when it changed what is owned here.
    func attachCollectionSync(to window: MainWindow, model: AppModel) {
        let token = model.collectionSync.subscribe { [weak window] summary in
            guard let summary, let window else { return }
            WidgetEvents.say("mb-collection synced \(summary.text)")
            guard summary.owned + summary.disowned > 0 else { return }
            window.toasts.show(L10n.tr("MusicBrainz collection: %@", summary.text), seconds: 5)
        }
        GObjectScope.of(window.widget).keepAlive(token)
    }
}
