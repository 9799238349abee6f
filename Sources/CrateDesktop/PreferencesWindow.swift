import CGtk
import CrateCore
import Foundation

/// Preferences (Ctrl+,): provider, model, endpoint, API key, advanced search, MusicBrainz contact.
/// A thin binding to `PreferencesStore`, which validates and saves; keys are never shown.
@MainActor
final class PreferencesWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: PreferencesStore
    private let providerDropDown: UnsafeMutablePointer<GtkWidget>
    private let modelEntry: UnsafeMutablePointer<GtkWidget>
    private let endpointEntry: UnsafeMutablePointer<GtkWidget>
    private let keyEntry: UnsafeMutablePointer<GtkWidget>
    private let keyStatus: UnsafeMutablePointer<GtkWidget>
    private let searchSwitch: UnsafeMutablePointer<GtkWidget>
    private let contactEntry: UnsafeMutablePointer<GtkWidget>
    private let overrideLabel: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var tokens: [ObservationToken] = []

    init(parent: UnsafeMutablePointer<GtkWidget>?, store: PreferencesStore, firstRun: Bool) {
        self.store = store
        widget = gtk_window_new()!
        gtk_window_set_title(crate_window(widget), "Preferences")
        gtk_window_set_default_size(crate_window(widget), 560, -1)
        gtk_window_set_modal(crate_window(widget), 1)
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }

        providerDropDown = Gtk.withCStringArray(PreferencesStore.providers.map(\.name)) { gtk_drop_down_new_from_strings($0)! }
        modelEntry = gtk_entry_new()!
        endpointEntry = gtk_entry_new()!
        keyEntry = gtk_password_entry_new()!
        gtk_password_entry_set_show_peek_icon(OpaquePointer(keyEntry), 1)
        keyStatus = Gtk.label("", classes: ["dim-label", "caption"])
        searchSwitch = gtk_switch_new()!
        gtk_widget_set_halign(searchSwitch, GTK_ALIGN_START)
        contactEntry = gtk_entry_new()!
        overrideLabel = Gtk.label("", classes: ["dim-label", "caption"])
        Gtk.wrap(overrideLabel)
        errorLabel = Gtk.label("", classes: ["error"])
        Gtk.wrap(errorLabel)

        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 16, classes: ["preferences"])
        if firstRun {
            let intro = Gtk.label("Crate needs a vision provider to identify albums it has not seen before and to write reviews. Without one, it still recognises covers already in your crate, offline.", classes: ["first-run"])
            Gtk.wrap(intro)
            Gtk.append(content, intro)
        }
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(crate_grid(grid), 10)
        gtk_grid_set_column_spacing(crate_grid(grid), 12)
        let rows: [(String, UnsafeMutablePointer<GtkWidget>)] = [
            ("_Provider", providerDropDown), ("_Model", modelEntry), ("_Endpoint", endpointEntry),
            ("API _key", keyEntry), ("", keyStatus), ("Advanced _search", searchSwitch), ("MusicBrainz _contact", contactEntry),
        ]
        for (row, (title, field)) in rows.enumerated() {
            let label = gtk_label_new_with_mnemonic(title)!
            gtk_label_set_xalign(crate_label(label), 1)
            gtk_label_set_mnemonic_widget(crate_label(label), field)
            gtk_widget_set_hexpand(field, 1)
            gtk_grid_attach(crate_grid(grid), label, 0, Int32(row), 1, 1)
            gtk_grid_attach(crate_grid(grid), field, 1, Int32(row), 1, 1)
        }
        gtk_widget_set_tooltip_text(searchSwitch, "Lets the provider search the web to finish hard identifications and to review new releases")
        Gtk.setAccessibleLabel(searchSwitch, "Advanced search")
        Gtk.append(content, grid)
        Gtk.append(content, overrideLabel)
        Gtk.append(content, errorLabel)

        let buttons = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let cancel = gtk_button_new_with_mnemonic("_Cancel")!
        let save = gtk_button_new_with_mnemonic("_Save")!
        gtk_widget_add_css_class(save, "suggested-action")
        Gtk.append(buttons, cancel)
        Gtk.append(buttons, save)
        Gtk.append(content, buttons)
        gtk_window_set_child(crate_window(widget), content)
        gtk_window_set_default_widget(crate_window(widget), save)

        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        GSignal.connect(cancel, "clicked", owner: widget) { [weak self] in
            guard let self else { return }
            gtk_window_destroy(crate_window(self.widget))
        }
        GSignal.connect(save, "clicked", owner: widget) { [weak self] in
            guard let self, self.store.save() else { return }
            gtk_window_destroy(crate_window(self.widget))
        }
        GSignal.connect(providerDropDown, "notify::selected", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            let index = Int(gtk_drop_down_get_selected(crate_drop_down(self.providerDropDown)))
            guard PreferencesStore.providers.indices.contains(index) else { return }
            self.store.selectProvider(PreferencesStore.providers[index].kind)
        }
        bind(modelEntry) { $0.setModel($1) }
        bind(endpointEntry) { $0.setEndpoint($1) }
        bind(keyEntry) { $0.setKey($1) }
        bind(contactEntry) { $0.setContact($1) }
        GSignal.connect(searchSwitch, "notify::active", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            self.store.setAdvancedSearch(gtk_switch_get_active(crate_switch(self.searchSwitch)) != 0)
        }
    }

    func present() {
        gtk_window_present(crate_window(widget))
    }

    // MARK: - Private

    /// Every edit of `entry` goes to the store's `intent`.
    private func bind(_ entry: UnsafeMutablePointer<GtkWidget>, _ intent: @escaping @MainActor (PreferencesStore, String) -> Void) {
        GSignal.connect(entry, "changed", owner: widget) { [weak self] in
            guard let self else { return }
            intent(self.store, self.text(entry))
        }
    }

    private func render(_ state: PreferencesState) {
        let index = PreferencesStore.providers.firstIndex { $0.kind == state.provider } ?? 0
        if Int(gtk_drop_down_get_selected(crate_drop_down(providerDropDown))) != index {
            gtk_drop_down_set_selected(crate_drop_down(providerDropDown), UInt32(index))
            setText(keyEntry, "")  // A key typed for the previous provider is dropped.
        }
        setText(modelEntry, state.model)
        gtk_entry_set_placeholder_text(crate_entry(modelEntry), state.modelPlaceholder)
        setText(endpointEntry, state.endpoint)
        setText(contactEntry, state.contact)
        if (gtk_switch_get_active(crate_switch(searchSwitch)) != 0) != state.advancedSearch {
            gtk_switch_set_active(crate_switch(searchSwitch), state.advancedSearch ? 1 : 0)
        }
        for field in [modelEntry, endpointEntry] { gtk_widget_set_sensitive(field, state.providerFieldsEnabled ? 1 : 0) }
        gtk_widget_set_sensitive(keyEntry, state.keyFieldEnabled ? 1 : 0)
        Gtk.setText(keyStatus, state.keyStatus)
        Gtk.setText(overrideLabel, state.overrideNotice ?? "")
        gtk_widget_set_visible(overrideLabel, state.overrideNotice == nil ? 0 : 1)
        Gtk.setText(errorLabel, state.errorMessage ?? "")
    }

    private func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_editable_get_text(crate_editable(entry)).map { String(cString: $0) } ?? ""
    }

    /// Only when different: setting an entry's text emits "changed", which calls back into the store.
    private func setText(_ entry: UnsafeMutablePointer<GtkWidget>, _ value: String) {
        guard text(entry) != value else { return }
        gtk_editable_set_text(crate_editable(entry), value)
    }
}
