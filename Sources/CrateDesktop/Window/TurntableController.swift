import CGtk
import CrateCore

/// "Spin This Record" in the window: the `win.album-spin` action (the record section's button,
/// the albums' context menus), the turntable bar and its `turntable.*` actions, and one source of
/// music at a time — spinning a record stops what the speakers play, and playing an album through
/// the speakers takes the record off.
@MainActor
final class TurntableController {
    let store: TurntableStore
    let bar: TurntableBar
    /// The window's controller (the test hooks follow its bar).
    private(set) static weak var current: TurntableController?
    private var tokens: [ObservationToken] = []

    static func install(on window: MainWindow, model: AppModel) {
        let controller = TurntableController(store: model.turntable)
        current = controller
        Gtk.append(window.contentBox, controller.bar.widget)
        let store = controller.store, playback = model.playback
        // The actions hold the controller for the window's life.
        Actions.addID(to: window.widget, "album-spin") { id in
            _ = controller
            Task {
                if playback.state.value.status != .stopped { await playback.stop() }
                await store.spin(albumID: id)
            }
        }
        let group = g_simple_action_group_new()!
        let map = UnsafeMutableRawPointer(group)
        Actions.add(to: map, "toggle-play") { store.togglePlay() }
        Actions.add(to: map, "skip") { store.skip() }
        Actions.add(to: map, "flip") { store.flip() }
        Actions.add(to: map, "stop") { store.stop() }
        gtk_widget_insert_action_group(window.widget, "turntable", OpaquePointer(group))
        g_object_unref(map)
        playback.state.subscribe { state in
            if state.status == .playing, store.state.value.isActive { store.stop() }
        }.store(in: &controller.tokens)
        var lastMessage: String?
        store.state.subscribe { [weak window] state in
            if let message = state.message, message != lastMessage { window?.errorBanner.show(message) }
            lastMessage = state.message
        }.store(in: &controller.tokens)
    }

    private init(store: TurntableStore) {
        self.store = store
        bar = TurntableBar(store: store)
    }
}
