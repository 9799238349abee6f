import CGtk
import CrateCore
import Foundation

/// Preferences' "Last.fm Account" row: Connect… asks Last.fm for a token and opens its approval
/// page in the browser; Done (shown meanwhile) keeps the session and turns scrobbling on.
@MainActor
final class LastFMConnectRow {
    private let row: UnsafeMutablePointer<GtkWidget>
    private let connectButton: UnsafeMutablePointer<GtkWidget>
    private let doneButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let store: LastFMConnectStore
    private var tokens: [ObservationToken] = []

    init(rows: PreferencesRows, store: LastFMConnectStore) {
        row = rows.lastFMConnect
        connectButton = rows.lastFMConnectButton
        doneButton = rows.lastFMDoneButton
        spinner = rows.lastFMSpinner
        self.store = store
        let window = rows.window
        store.onOpen = { [weak store] url in
            WidgetEvents.say("lastfm-approval \(url.absoluteString)")
            // Without a browser to hand it to, the address goes on the clipboard instead.
            var error: UnsafeMutablePointer<GError>?
            if g_app_info_launch_default_for_uri(url.absoluteString, nil, &error) == 0 {
                if let error { g_error_free(error) }
                gdk_clipboard_set_text(gdk_display_get_clipboard(gtk_widget_get_display(window)), url.absoluteString)
                WidgetEvents.say("lastfm-approval copied")
                store?.linkCopied()
            }
        }
        let scope = GObjectScope.of(row)
        scope.connect(connectButton, "clicked") { [weak self] in
            guard let self else { return }
            if case .awaitingApproval = self.store.state.value.step { self.store.cancel() }
            Task { await self.store.connect() }
        }
        scope.connect(doneButton, "clicked") { [weak self] in Task { await self?.store.finish() } }
        scope.keepAlive(self)
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
    }

    private func render(_ state: LastFMConnectState) {
        adw_action_row_set_subtitle(crate_action_row(row), state.text)
        let busy = state.step == .asking || state.step == .finishing
        Gtk.spin(spinner, busy)
        var waiting = false
        if case .awaitingApproval = state.step { waiting = true }
        gtk_widget_set_visible(doneButton, waiting ? 1 : 0)
        gtk_widget_set_sensitive(connectButton, busy || !state.hasApplication ? 0 : 1)
        gtk_button_set_label(crate_button(connectButton), waiting ? L10n.tr("_Open Again…") : state.isConnected ? L10n.tr("_Reconnect…") : L10n.tr("_Connect…"))
        WidgetEvents.say("lastfm-connect \(state.isConnected ? "connected" : "not-connected") waiting \(waiting)")
    }
}
