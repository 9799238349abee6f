import CGtk
import CrateCore
import Foundation

/// Preferences' "Collection" page: sign in to MusicBrainz, choose one of the account's release
/// collections, sync the owned records with it, and — when records stopped being owned here —
/// remove them there too. Laid out in data/ui/musicbrainz-collection-page.ui.
@MainActor
final class MusicBrainzCollectionPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: MusicBrainzCollectionStore
    private let userRow: UnsafeMutablePointer<GtkWidget>
    private let passwordRow: UnsafeMutablePointer<GtkWidget>
    private let accountRow: UnsafeMutablePointer<GtkWidget>
    private let signInButton: UnsafeMutablePointer<GtkWidget>
    private let collectionRow: UnsafeMutablePointer<GtkWidget>
    private let syncRow: UnsafeMutablePointer<GtkWidget>
    private let syncButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let removalsRow: UnsafeMutablePointer<GtkWidget>
    private let removeButton: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var shownCollections: [MusicBrainzCollection]?
    private var tokens: [ObservationToken] = []
    /// True while `render` sets the combo row, so its signal does not save.
    private var rendering = false

    init(store: MusicBrainzCollectionStore) {
        self.store = store
        let parts = UIFile.load("musicbrainz-collection-page") { ui in
            (page: ui.take("collection-page"), user: ui.widget("user"), password: ui.widget("password"), account: ui.widget("account"),
             signIn: ui.widget("sign-in"), collection: ui.widget("collection"), syncRow: ui.widget("sync-row"), sync: ui.widget("sync"),
             spinner: ui.widget("spinner"), removals: ui.widget("removals"), remove: ui.widget("remove"), error: ui.widget("error"))
        }
        widget = parts.page
        userRow = parts.user
        passwordRow = parts.password
        // libadwaita 1.2 builds the password row's show button without a name.
        crate_label_first_descendant(passwordRow, "GtkButton", L10n.tr("Show or hide the text"))
        accountRow = parts.account
        signInButton = parts.signIn
        collectionRow = parts.collection
        syncRow = parts.syncRow
        syncButton = parts.sync
        spinner = parts.spinner
        removalsRow = parts.removals
        removeButton = parts.remove
        errorLabel = parts.error
        let state = store.state.value
        gtk_editable_set_text(crate_editable(userRow), state.user)
        let scope = GObjectScope.of(widget)
        scope.connect(parts.signIn, "clicked") { [weak self] in self?.signIn() }
        scope.connect(parts.sync, "clicked") { [weak self] in
            WidgetEvents.say("mb-collection sync")
            Task { await self?.store.sync() }
        }
        scope.connect(parts.remove, "clicked") { [weak self] in
            WidgetEvents.say("mb-collection remove")
            Task { await self?.store.sync(confirmRemovals: true) }
        }
        GSignal.connect(collectionRow, "notify::selected", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let selected = Int(adw_combo_row_get_selected(crate_combo_row(self.collectionRow)))
            if selected > 0 { self.store.choose(index: selected - 1) }
        }
        scope.keepAlive(self)
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        if state.isSignedIn { Task { await store.refresh() } }
    }

    /// Where its parts are, for the UI tests (`point-mb-user`, `point-mb-password`, `point-mb-sign-in`, `point-mb-collection`,
    /// `point-mb-sync`, `point-mb-remove`), in the Preferences window's coordinates; only while it is shown.
    func reportPoints() {
        guard gtk_widget_get_mapped(widget) != 0, let root = gtk_widget_get_root(widget) else { return }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        // The dialog's X window includes its shadow: points are moved by the surface's transform.
        var dx = 0.0, dy = 0.0
        if let native = gtk_widget_get_native(widget) { gtk_native_get_surface_transform(native, &dx, &dy) }
        for (name, part) in [("point-mb-user", userRow), ("point-mb-password", passwordRow), ("point-mb-sign-in", signInButton),
                             ("point-mb-collection", collectionRow), ("point-mb-sync", syncButton), ("point-mb-remove", removeButton)] {
            WidgetEvents.place(name, of: part, x: Double(gtk_widget_get_width(part)) / 2 + dx, y: Double(gtk_widget_get_height(part)) / 2 + dy, in: window)
        }
    }

    private func signIn() {
        let user = gtk_editable_get_text(crate_editable(userRow)).map { String(cString: $0) } ?? ""
        let password = gtk_editable_get_text(crate_editable(passwordRow)).map { String(cString: $0) } ?? ""
        WidgetEvents.say("mb-collection sign-in")
        Task {
            await store.signIn(user: user, password: password)
            // Once kept with the other secrets, the password is not left on screen.
            if store.state.value.isSignedIn { gtk_editable_set_text(crate_editable(passwordRow), "") }
        }
    }

    private func render(_ state: MusicBrainzCollectionState) {
        rendering = true
        defer { rendering = false }
        adw_action_row_set_subtitle(crate_action_row(accountRow), state.accountText)
        let busy = state.work != nil
        Gtk.spin(spinner, busy)
        gtk_widget_set_sensitive(signInButton, busy ? 0 : 1)
        gtk_widget_set_sensitive(syncButton, !busy && state.isSignedIn && state.chosenID != nil ? 1 : 0)
        if state.collections != shownCollections {
            shownCollections = state.collections
            // "None" first: a combo row always shows a choice, and choosing is the user's.
            let names = Gtk.withCStringArray([L10n.tr("None")] + state.collections.map(\.name)) { gtk_string_list_new($0)! }
            adw_combo_row_set_model(crate_combo_row(collectionRow), crate_list_model(UnsafeMutableRawPointer(names)))
            g_object_unref(UnsafeMutableRawPointer(names))
            // A new model keeps position 0 without showing it: moved off and back, it is shown.
            adw_combo_row_set_selected(crate_combo_row(collectionRow), 1)
        }
        gtk_widget_set_sensitive(collectionRow, state.collections.isEmpty ? 0 : 1)
        adw_combo_row_set_selected(crate_combo_row(collectionRow), UInt32(state.chosenIndex.map { $0 + 1 } ?? 0))
        adw_action_row_set_subtitle(crate_action_row(collectionRow), state.collections.isEmpty ? state.collectionText : "")
        let syncText = state.work == .syncing ? L10n.tr("Syncing…") : (state.isError ? nil : state.message)
        adw_action_row_set_subtitle(crate_action_row(syncRow), syncText ?? L10n.tr("Adds what you own here, and owns what was added there."))
        gtk_widget_set_visible(removalsRow, state.awaitingRemoval > 0 ? 1 : 0)
        adw_action_row_set_subtitle(crate_action_row(removalsRow),
                                    L10n.plural("%@ record you no longer own is still in the collection.",
                                                "%@ records you no longer own are still in the collection.", state.awaitingRemoval, state.awaitingRemoval))
        Gtk.setText(errorLabel, state.isError ? state.message ?? "" : "")
        gtk_widget_set_visible(errorLabel, state.isError ? 1 : 0)
        WidgetEvents.say("mb-collection \(state.isSignedIn ? "signed-in" : "signed-out") collections \(state.collections.count) busy \(busy) chosen \(state.chosenIndex.map(String.init) ?? "none") awaiting \(state.awaitingRemoval)")
        if let message = state.message, !busy { WidgetEvents.say("mb-collection \(state.isError ? "error" : "message") \(message)") }
    }
}
