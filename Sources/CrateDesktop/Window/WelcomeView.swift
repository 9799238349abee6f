import CGtk
import CrateCore
import Foundation

/// The first-run welcome (no settings yet, no key anywhere): an `AdwStatusPage` that picks a
/// provider, links to where its key comes from, tests the connection and stores the key, or
/// lets the user go on offline. A binding to the provider store of its own `PreferencesStore`.
@MainActor
final class WelcomeView {
    /// The providers offered here: "none" is the Skip button.
    private static let choices: [(kind: ProviderKind, name: String)] = ProviderPreferencesStore.providers.filter { $0.kind != .none }

    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: ProviderPreferencesStore
    private let providerRow: UnsafeMutablePointer<GtkWidget>
    private let keyRow: UnsafeMutablePointer<GtkWidget>
    private let linkRow: UnsafeMutablePointer<GtkWidget>
    private let keyLink: UnsafeMutablePointer<GtkWidget>
    private let result: UnsafeMutablePointer<GtkWidget>
    private let testButton: UnsafeMutablePointer<GtkWidget>
    private var tokens: [ObservationToken] = []
    private var rendering = false
    /// Called once the user saved a provider or skipped.
    var onDone: (() -> Void)?
    /// The key row and the buttons (test events point at them).
    var keyField: UnsafeMutablePointer<GtkWidget> { keyRow }
    private(set) var saveButton: UnsafeMutablePointer<GtkWidget>!
    var testConnectionButton: UnsafeMutablePointer<GtkWidget> { testButton }
    var onConnection: ((CredentialCheck) -> Void)?

    init(store preferences: PreferencesStore) {
        let store = preferences.provider
        self.store = store
        widget = adw_status_page_new()!
        gtk_widget_add_css_class(widget, "welcome")
        adw_status_page_set_icon_name(crate_status_page(widget), "media-optical-symbolic")
        // A smaller icon and margins: the whole form fits a 1280×800 screen without scrolling.
        gtk_widget_add_css_class(widget, "compact")
        adw_status_page_set_title(crate_status_page(widget), L10n.tr("Welcome to Crate"))
        adw_status_page_set_description(crate_status_page(widget),
            L10n.tr("Photograph a record cover and Crate names the album. Choose the service that reads covers; you can change it later in Preferences."))

        let group = adw_preferences_group_new()!
        providerRow = adw_combo_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(providerRow), L10n.tr("Service"))
        let names = Gtk.withCStringArray(Self.choices.map(\.name)) { gtk_string_list_new($0)! }
        adw_combo_row_set_model(crate_combo_row(providerRow), crate_list_model(UnsafeMutableRawPointer(names)))
        g_object_unref(UnsafeMutableRawPointer(names))
        keyRow = adw_password_entry_row_new()!
        crate_label_plain_buttons(keyRow, L10n.tr("Apply"))
        adw_preferences_row_set_title(crate_preferences_row(keyRow), L10n.tr("API Key"))
        linkRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(linkRow), L10n.tr("No key yet?"))
        keyLink = gtk_link_button_new_with_label("https://example.invalid", L10n.tr("Get a key"))!
        gtk_widget_set_valign(keyLink, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(linkRow), keyLink)
        for row in [providerRow, keyRow, linkRow] { adw_preferences_group_add(crate_preferences_group(group), row) }

        result = Gtk.label("", classes: ["caption"], xalign: 0.5)
        Gtk.wrap(result)
        gtk_label_set_justify(crate_label(result), GTK_JUSTIFY_CENTER)
        testButton = gtk_button_new_with_mnemonic(L10n.tr("_Test Connection"))!
        let save = gtk_button_new_with_mnemonic(L10n.tr("_Save and Start"))!
        gtk_widget_add_css_class(save, "suggested-action")
        saveButton = save
        gtk_widget_add_css_class(save, "pill")
        gtk_widget_add_css_class(testButton, "pill")
        let skip = gtk_button_new_with_mnemonic(L10n.tr("Skip — _Offline Matching Only"))!
        gtk_widget_add_css_class(skip, "flat")
        // Stacked, the main action first: side by side the two pills need more than 360 px.
        let buttons = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_box_set_homogeneous(crate_box(buttons), 1)
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        Gtk.append(buttons, save)
        Gtk.append(buttons, testButton)
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 18)
        for child in [group, result, buttons, skip] { Gtk.append(content, child) }
        gtk_widget_set_halign(skip, GTK_ALIGN_CENTER)
        // Longer translations wrap instead of widening a 360 px window.
        for button in [testButton, save, skip] {
            if let label = gtk_button_get_child(crate_button(button)) {
                Gtk.wrap(label)
                gtk_label_set_max_width_chars(crate_label(label), 16)
                gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
            }
        }
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 440)
        adw_clamp_set_child(crate_clamp(clamp), content)
        adw_status_page_set_child(crate_status_page(widget), clamp)

        // Anthropic is offered first (the best covers reader); nothing is saved until Save.
        store.selectProvider(Self.choices[0].kind)
        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        store.key.state.subscribe(initial: true) { [weak self] _ in self?.renderResult() }.store(in: &tokens)
        let scope = GObjectScope.of(widget)
        scope.connect(providerRow, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let index = Int(adw_combo_row_get_selected(crate_combo_row(self.providerRow)))
            guard Self.choices.indices.contains(index) else { return }
            self.store.selectProvider(Self.choices[index].kind)
        }
        scope.connect(keyRow, "changed") { [weak self] in
            guard let self, !self.rendering else { return }
            self.store.key.setSecret(gtk_editable_get_text(crate_editable(self.keyRow)).map { String(cString: $0) } ?? "")
        }
        scope.connect(testButton, "clicked") { [weak self] in self?.store.testConnection() }
        scope.connect(save, "clicked") { [weak self] in
            guard let self, self.store.save() else { return }
            self.onDone?()
        }
        scope.connect(skip, "clicked") { [weak self] in
            guard let self else { return }
            self.store.selectProvider(.none)
            if self.store.save() { self.onDone?() }
        }
    }

    private func render(_ state: ProviderPreferencesState) {
        rendering = true
        defer { rendering = false }
        if let index = Self.choices.firstIndex(where: { $0.kind == state.provider }),
           Int(adw_combo_row_get_selected(crate_combo_row(providerRow))) != index {
            adw_combo_row_set_selected(crate_combo_row(providerRow), UInt32(index))
            gtk_editable_set_text(crate_editable(keyRow), "")
        }
        gtk_widget_set_visible(keyRow, state.provider.needsKey ? 1 : 0)
        if let link = state.keyLink {
            gtk_link_button_set_uri(OpaquePointer(keyLink), link.absoluteString)
            Gtk.setWrappingLabel(keyLink, state.keyLinkTitle)
        }
        adw_preferences_row_set_title(crate_preferences_row(linkRow), state.provider.needsKey ? L10n.tr("No key yet?") : L10n.tr("Not installed yet?"))
        renderResult()
    }

    /// The line under the fields: the connection test's answer, else what could not be saved.
    private func renderResult() {
        let check = store.key.state.value.check, errorMessage = store.state.value.errorMessage
        Gtk.setText(result, check.message ?? errorMessage ?? "")
        gtk_widget_remove_css_class(result, "error")
        gtk_widget_remove_css_class(result, "success")
        if check.isFailure || errorMessage != nil { gtk_widget_add_css_class(result, "error") }
        if case .valid = check { gtk_widget_add_css_class(result, "success") }
        gtk_widget_set_sensitive(testButton, check == .checking ? 0 : 1)
        onConnection?(check)
    }
}
