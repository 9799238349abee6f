import CGtk
import CrateCore
import Foundation

/// Preferences' "Photos" page: "Scan photos that arrive in…" with Choose… (a native
/// select-folder chooser) and a switch, saved at once; and the photos set aside there, one row
/// each (the latest few). Laid out in data/ui/photo-folder-page.ui.
@MainActor
final class PhotoFolderPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: PhotoFolderStore
    private let watchRow: UnsafeMutablePointer<GtkWidget>
    private let toggle: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private let asideGroup: UnsafeMutablePointer<GtkWidget>
    private let asideRow: UnsafeMutablePointer<GtkWidget>
    private var asideRows: [UnsafeMutablePointer<GtkWidget>] = []
    private var shownAside: [SetAsidePhoto]?
    private var tokens: [ObservationToken] = []
    /// True while `render` sets the switch, so its signal does not save.
    private var rendering = false

    init(store: PhotoFolderStore) {
        self.store = store
        let parts = UIFile.load("photo-folder-page") { ui in
            (page: ui.take("photos-page"), watch: ui.widget("watch"), choose: ui.widget("choose"), toggle: ui.widget("switch"),
             error: ui.widget("error"), asideGroup: ui.widget("aside-group"), aside: ui.widget("aside"))
        }
        widget = parts.page
        watchRow = parts.watch
        toggle = parts.toggle
        errorLabel = parts.error
        asideGroup = parts.asideGroup
        asideRow = parts.aside
        Gtk.setTooltip(toggle, L10n.tr("Scan photos that arrive in the folder"))
        let scope = GObjectScope.of(widget)
        scope.connect(parts.choose, "clicked") { [weak self] in self?.chooseFolder() }
        GSignal.connect(toggle, "notify::active", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let on = gtk_switch_get_active(crate_switch(self.toggle)) != 0
            WidgetEvents.say("photo-folder switch \(on)")
            self.store.setOn(on)
        }
        scope.keepAlive(self)
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        Task { await store.refreshSetAside() }
    }

    private func render(_ state: PhotoFolderState) {
        rendering = true
        defer { rendering = false }
        adw_action_row_set_subtitle(crate_action_row(watchRow), state.folderText)
        if (gtk_switch_get_active(crate_switch(toggle)) != 0) != state.isOn { gtk_switch_set_active(crate_switch(toggle), state.isOn ? 1 : 0) }
        Gtk.setText(errorLabel, state.errorMessage ?? "")
        gtk_widget_set_visible(errorLabel, state.errorMessage == nil ? 0 : 1)
        adw_action_row_set_subtitle(crate_action_row(asideRow), state.setAsideText)
        guard state.setAside != shownAside else { return }
        shownAside = state.setAside
        for row in asideRows { adw_preferences_group_remove(crate_preferences_group(asideGroup), row) }
        asideRows = state.setAside.map { photo in
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(crate_preferences_row(row), 0)
            adw_preferences_row_set_title(crate_preferences_row(row), PathBytes.displayName((photo.path as NSString).lastPathComponent))
            adw_action_row_set_subtitle(crate_action_row(row), photo.reason)
            adw_preferences_group_add(crate_preferences_group(asideGroup), row)
            return row
        }
        WidgetEvents.say("photo-folder set-aside \(state.setAsideCount)")
    }

    private func chooseFolder() {
        FileChooser.present(over: widget, title: L10n.tr("Scan Photos That Arrive In"), action: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                            accept: L10n.tr("_Choose")) { [weak self] path, _ in
            WidgetEvents.say("photo-folder chosen")
            self?.store.choose(path)
        }
    }
}
