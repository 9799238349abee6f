import CGtk
import CrateCore
import Foundation

/// Preferences (Ctrl+,): provider, model, endpoint, API key, advanced search, MusicBrainz contact.
/// Keys go to the Secret Service when there is one, else to a 0600 file; they are never shown.
@MainActor
final class PreferencesWindow {
    private static let providers: [(ProviderKind, String)] = [
        (.none, "None — offline matching only"),
        (.anthropic, "Anthropic"),
        (.openai, "OpenAI"),
        (.ollama, "Ollama (local)"),
    ]

    let widget: UnsafeMutablePointer<GtkWidget>
    private let paths: CratePaths
    private let keys: KeyStore
    private var settings: Settings
    private let providerDropDown: UnsafeMutablePointer<GtkWidget>
    private let modelEntry: UnsafeMutablePointer<GtkWidget>
    private let endpointEntry: UnsafeMutablePointer<GtkWidget>
    private let keyEntry: UnsafeMutablePointer<GtkWidget>
    private let keyStatus: UnsafeMutablePointer<GtkWidget>
    private let searchSwitch: UnsafeMutablePointer<GtkWidget>
    private let contactEntry: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var shownProvider: ProviderKind
    /// Called after a successful save so the app can rebuild its services.
    var onSaved: (() -> Void)?

    init(parent: UnsafeMutablePointer<GtkWidget>?, paths: CratePaths, keys: KeyStore, settings: Settings, firstRun: Bool) {
        self.paths = paths
        self.keys = keys
        self.settings = settings
        shownProvider = settings.provider
        widget = gtk_window_new()!
        gtk_window_set_title(crate_window(widget), "Preferences")
        gtk_window_set_default_size(crate_window(widget), 560, -1)
        gtk_window_set_modal(crate_window(widget), 1)
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }

        providerDropDown = Gtk.withCStringArray(Self.providers.map(\.1)) { gtk_drop_down_new_from_strings($0)! }
        modelEntry = gtk_entry_new()!
        endpointEntry = gtk_entry_new()!
        keyEntry = gtk_password_entry_new()!
        gtk_password_entry_set_show_peek_icon(OpaquePointer(keyEntry), 1)
        keyStatus = Gtk.label("", classes: ["dim-label", "caption"])
        searchSwitch = gtk_switch_new()!
        gtk_widget_set_halign(searchSwitch, GTK_ALIGN_START)
        contactEntry = gtk_entry_new()!
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

        GSignal.connect(cancel, "clicked") { [weak self] in
            guard let self else { return }
            gtk_window_destroy(crate_window(self.widget))
        }
        GSignal.connect(save, "clicked") { [weak self] in self?.save() }
        GSignal.connect(providerDropDown, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.providerChanged()
        }
        load()
    }

    func present() {
        gtk_window_present(crate_window(widget))
    }

    // MARK: - Private

    private var selectedProvider: ProviderKind {
        let index = Int(gtk_drop_down_get_selected(crate_drop_down(providerDropDown)))
        return Self.providers.indices.contains(index) ? Self.providers[index].0 : .none
    }

    private func load() {
        let index = Self.providers.firstIndex { $0.0 == settings.provider } ?? 0
        gtk_drop_down_set_selected(crate_drop_down(providerDropDown), UInt32(index))
        gtk_switch_set_active(crate_switch(searchSwitch), settings.advancedSearch ? 1 : 0)
        setText(contactEntry, settings.musicBrainzContact)
        showProviderFields()
    }

    private func providerChanged() {
        // Keep what was typed for the previous provider's endpoint before showing the next one.
        storeEndpoint(for: shownProvider)
        shownProvider = selectedProvider
        showProviderFields()
    }

    private func showProviderFields() {
        let provider = selectedProvider
        let enabled: gboolean = provider == .none ? 0 : 1
        for field in [modelEntry, endpointEntry, keyEntry] { gtk_widget_set_sensitive(field, enabled) }
        gtk_widget_set_sensitive(keyEntry, provider.needsKey || provider == .ollama ? enabled : 0)
        setText(modelEntry, settings.provider == provider ? (settings.model ?? "") : "")
        gtk_entry_set_placeholder_text(crate_entry(modelEntry), provider == .none ? "" : ProviderFactory.defaultModel(for: provider))
        setText(endpointEntry, endpoint(for: provider)?.absoluteString ?? "")
        setText(keyEntry, "")
        let source = keys.source(for: provider)
        switch source {
        case .missing: Gtk.setText(keyStatus, provider.needsKey ? "No key saved. Paste one above." : "No key needed.")
        case .refusedInsecureFile: Gtk.setText(keyStatus, source.description)
        default: Gtk.setText(keyStatus, "A key is saved (\(source.description)). Type a new one to replace it.")
        }
    }

    private func endpoint(for provider: ProviderKind) -> URL? {
        switch provider {
        case .anthropic: return settings.endpoints.anthropic
        case .openai: return settings.endpoints.openAI
        case .ollama: return settings.endpoints.ollama
        case .none: return nil
        }
    }

    @discardableResult
    private func storeEndpoint(for provider: ProviderKind) -> Bool {
        let text = self.text(endpointEntry).trimmingCharacters(in: .whitespaces)
        guard provider != .none, !text.isEmpty else { return true }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme) else { return false }
        switch provider {
        case .anthropic: settings.endpoints.anthropic = url
        case .openai: settings.endpoints.openAI = url
        case .ollama: settings.endpoints.ollama = url
        case .none: break
        }
        return true
    }

    private func save() {
        let provider = selectedProvider
        guard storeEndpoint(for: provider) else {
            Gtk.setText(errorLabel, "The endpoint must be an http:// or https:// address.")
            return
        }
        settings.provider = provider
        let model = text(modelEntry).trimmingCharacters(in: .whitespaces)
        settings.model = model.isEmpty ? nil : model
        settings.advancedSearch = gtk_switch_get_active(crate_switch(searchSwitch)) != 0
        let contact = text(contactEntry).trimmingCharacters(in: .whitespaces)
        if !contact.isEmpty { settings.musicBrainzContact = contact }
        do {
            try settings.save(paths: paths)
            let key = text(keyEntry).trimmingCharacters(in: .whitespacesAndNewlines)
            if !key.isEmpty { _ = try keys.save(key, for: provider) }
        } catch {
            Gtk.setText(errorLabel, (error as? CrateError)?.message ?? error.localizedDescription)
            return
        }
        onSaved?()
        gtk_window_destroy(crate_window(widget))
    }

    private func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_editable_get_text(crate_editable(entry)).map { String(cString: $0) } ?? ""
    }

    private func setText(_ entry: UnsafeMutablePointer<GtkWidget>, _ value: String) {
        gtk_editable_set_text(crate_editable(entry), value)
    }
}
