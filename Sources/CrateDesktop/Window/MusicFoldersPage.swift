import CGtk
import CrateCore
import Foundation

/// Preferences' "Music" page: the music folders (default `xdg-user-dir MUSIC`), Add Folder…
/// (a native select-folder chooser), a remove button per folder, and the re-index under way or
/// what the last one found. Changes save at once and re-index (through `onFoldersChanged`).
@MainActor
final class MusicFoldersPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: MusicFoldersStore
    private let group: UnsafeMutablePointer<GtkWidget>
    private let statusRow: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var folderRows: [UnsafeMutablePointer<GtkWidget>] = []
    private var shownFolders: [String]?
    private var tokens: [ObservationToken] = []
    private let replayGainRow: UnsafeMutablePointer<GtkWidget>
    /// The combo row's order (data/ui/music-folders-page.ui).
    private static let replayGainModes: [ReplayGainMode] = [.album, .off]

    init(store: MusicFoldersStore, index: MusicIndexStore?) {
        self.store = store
        // The layout is data/ui/music-folders-page.ui; the folder rows are added in `render`.
        let parts = UIFile.load("music-folders-page") { ui in
            (page: ui.take("music-page"), group: ui.widget("folders"), add: ui.widget("add"), statusGroup: ui.widget("status-group"),
             status: ui.widget("status"), spinner: ui.widget("spinner"), error: ui.widget("error"), replayGain: ui.widget("replaygain"))
        }
        replayGainRow = parts.replayGain
        widget = parts.page
        group = parts.group
        statusRow = parts.status
        spinner = parts.spinner
        errorLabel = parts.error
        let add = parts.add
        crate_label_first_descendant(parts.statusGroup, "GtkListBox", L10n.tr("Index"))
        GObjectScope.of(widget).connect(add, "clicked") { [weak self] in self?.chooseFolder() }
        GObjectScope.of(widget).keepAlive(self)
        GSignal.connect(replayGainRow, "notify::selected", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            let index = Int(adw_combo_row_get_selected(crate_combo_row(self.replayGainRow)))
            guard Self.replayGainModes.indices.contains(index) else { return }
            WidgetEvents.say("replaygain \(Self.replayGainModes[index].rawValue)")
            self.store.setReplayGain(Self.replayGainModes[index])
        }

        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        index?.state.subscribe(initial: true) { [weak self] state in self?.render(index: state) }.store(in: &tokens)
        if index == nil { adw_action_row_set_subtitle(crate_action_row(statusRow), L10n.tr("Indexed when the main window is open.")) }
    }

    private func render(_ state: MusicFoldersState) {
        if let index = Self.replayGainModes.firstIndex(of: state.replayGain),
           Int(adw_combo_row_get_selected(crate_combo_row(replayGainRow))) != index {
            adw_combo_row_set_selected(crate_combo_row(replayGainRow), UInt32(index))
        }
        if let message = state.errorMessage {
            Gtk.setText(errorLabel, message)
            gtk_widget_set_visible(errorLabel, 1)
        } else {
            gtk_widget_set_visible(errorLabel, 0)
        }
        let key = state.folders + [state.isDefault ? "default" : ""]
        guard key != shownFolders else { return }
        shownFolders = key
        for row in folderRows { adw_preferences_group_remove(crate_preferences_group(group), row) }
        folderRows = []
        for folder in state.folders {
            let row = adw_action_row_new()!
            adw_preferences_row_set_use_markup(crate_preferences_row(row), 0)
            adw_preferences_row_set_title(crate_preferences_row(row), PathBytes.displayName(folder))
            if state.isDefault {
                adw_action_row_set_subtitle(crate_action_row(row), L10n.tr("Your Music folder (the default until you add one)"))
            } else {
                let remove = Gtk.iconButton("user-trash-symbolic", label: L10n.tr("Stop indexing %@", PathBytes.displayName(folder)))
                gtk_widget_add_css_class(remove, "flat")
                gtk_widget_set_valign(remove, GTK_ALIGN_CENTER)
                GObjectScope.of(remove).connect(remove, "clicked") { [weak self] in
                    WidgetEvents.say("music-folder removed")
                    self?.store.remove(folder)
                }
                adw_action_row_add_suffix(crate_action_row(row), remove)
            }
            adw_preferences_group_add(crate_preferences_group(group), row)
            folderRows.append(row)
        }
        WidgetEvents.say("music-folders \(state.folders.count) default=\(state.isDefault)")
    }

    private func render(index: MusicIndexState) {
        adw_action_row_set_subtitle(crate_action_row(statusRow), index.summary)
        if index.isIndexing { Gtk.spin(spinner, true) } else { Gtk.spin(spinner, false) }
        gtk_widget_set_visible(spinner, index.isIndexing ? 1 : 0)
    }

    private func chooseFolder() {
        FileChooser.present(over: widget, title: L10n.tr("Add a Music Folder"), action: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                            accept: L10n.tr("_Add")) { [weak self] path, _ in
            WidgetEvents.say("music-folder chosen")
            self?.store.add(path)
        }
    }
}
