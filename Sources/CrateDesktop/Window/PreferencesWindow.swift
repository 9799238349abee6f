import CGtk
import CrateCore
import Foundation

/// Preferences (Ctrl+,) as an `AdwPreferencesWindow` with instant apply: every change is saved
/// as it is made (text fields when their apply button or Enter is pressed); Esc closes. The
/// provider comes first, with where to get a key and a connection test; model, endpoint and web
/// search wait under "Advanced". The rows are laid out in data/ui/preferences-window.ui; this is
/// a thin binding of them to `PreferencesStore`, which validates and saves; keys are never shown.
@MainActor
final class PreferencesWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let store: PreferencesStore
    private let providerRow: UnsafeMutablePointer<GtkWidget>
    private let keyRow: UnsafeMutablePointer<GtkWidget>
    private let keyStatusRow: UnsafeMutablePointer<GtkWidget>
    private let keyLink: UnsafeMutablePointer<GtkWidget>
    private let testRow: UnsafeMutablePointer<GtkWidget>
    private let testButton: UnsafeMutablePointer<GtkWidget>
    private let testSpinner: UnsafeMutablePointer<GtkWidget>
    private let advanced: UnsafeMutablePointer<GtkWidget>
    private let modelRow: UnsafeMutablePointer<GtkWidget>
    private let endpointRow: UnsafeMutablePointer<GtkWidget>
    private let searchSwitch: UnsafeMutablePointer<GtkWidget>
    private let contactRow: UnsafeMutablePointer<GtkWidget>
    private let listenBrainzUserRow: UnsafeMutablePointer<GtkWidget>
    private let listenBrainzTokenRow: UnsafeMutablePointer<GtkWidget>
    private let listenBrainzTestRow: UnsafeMutablePointer<GtkWidget>
    private let listenBrainzTestButton: UnsafeMutablePointer<GtkWidget>
    private let discogsTokenRow: UnsafeMutablePointer<GtkWidget>
    private let discogsTestRow: UnsafeMutablePointer<GtkWidget>
    private let discogsTestButton: UnsafeMutablePointer<GtkWidget>
    private let usageGroup: UnsafeMutablePointer<GtkWidget>
    private let scansRow: UnsafeMutablePointer<GtkWidget>
    private let tokensRow: UnsafeMutablePointer<GtkWidget>
    private let costRow: UnsafeMutablePointer<GtkWidget>
    private let budgetStatusRow: UnsafeMutablePointer<GtkWidget>
    private let budgetScansRow: UnsafeMutablePointer<GtkWidget>
    private let budgetCostRow: UnsafeMutablePointer<GtkWidget>
    private let noticeLabel: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var tokens: [ObservationToken] = []
    /// True while `render` writes into the widgets, so their signals do not call back.
    private var rendering = false

    init(parent: UnsafeMutablePointer<GtkWidget>?, store: PreferencesStore) {
        self.store = store
        // The layout is data/ui/preferences-window.ui; here: the provider list, the labels'
        // wrapping and the names libadwaita leaves out.
        let ui = UIFile.load("preferences-window") { PreferencesRows($0) }
        widget = ui.window
        providerRow = ui.provider; keyRow = ui.key; keyStatusRow = ui.keyStatus; keyLink = ui.keyLink
        testRow = ui.test; testButton = ui.testButton; testSpinner = ui.testSpinner
        advanced = ui.advanced; modelRow = ui.model; endpointRow = ui.endpoint; searchSwitch = ui.searchSwitch
        contactRow = ui.contact
        listenBrainzUserRow = ui.listenBrainzUser; listenBrainzTokenRow = ui.listenBrainzToken
        listenBrainzTestRow = ui.listenBrainzTest; listenBrainzTestButton = ui.listenBrainzTestButton
        discogsTokenRow = ui.discogsToken; discogsTestRow = ui.discogsTest; discogsTestButton = ui.discogsTestButton
        usageGroup = ui.usage; scansRow = ui.scans; tokensRow = ui.tokens; costRow = ui.cost
        budgetStatusRow = ui.budgetStatus; budgetScansRow = ui.budgetScans; budgetCostRow = ui.budgetCost
        noticeLabel = ui.notice; errorLabel = ui.error
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }

        let names = Gtk.withCStringArray(PreferencesStore.providers.map(\.name)) { gtk_string_list_new($0)! }
        adw_combo_row_set_model(crate_combo_row(providerRow), crate_list_model(UnsafeMutableRawPointer(names)))
        g_object_unref(UnsafeMutableRawPointer(names))
        // A longer translation wraps instead of widening a 360 px window.
        if let label = gtk_button_get_child(crate_button(testButton)) {
            // Whole words only: "Test / Conn- / ection" is not a button.
            gtk_label_set_wrap(crate_label(label), 1)
            gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD)
            // The row gives its suffix only the minimum: at least the English text on one line.
            gtk_label_set_width_chars(crate_label(label), 15)
            gtk_label_set_max_width_chars(crate_label(label), 16)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
        }
        crate_label_first_descendant(widget, "GtkSearchEntry", L10n.tr("Search preferences"))
        for row in [keyRow, listenBrainzTokenRow, discogsTokenRow] { crate_label_first_descendant(row, "GtkButton", L10n.tr("Show or hide the text")) }
        for row in [keyRow, modelRow, endpointRow, contactRow, listenBrainzUserRow, listenBrainzTokenRow, discogsTokenRow, budgetScansRow, budgetCostRow] {
            crate_label_plain_buttons(row, L10n.tr("Apply"))
        }

        store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        connectSignals()
    }

    func present() {
        gtk_window_present(crate_window(widget))
        Task { await store.refreshUsage() }
    }

    // MARK: - Private

    private func connectSignals() {
        GSignal.connect(providerRow, "notify::selected", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let index = Int(adw_combo_row_get_selected(crate_combo_row(self.providerRow)))
            guard PreferencesStore.providers.indices.contains(index) else { return }
            self.store.selectProvider(PreferencesStore.providers[index].kind)
            self.store.save()
        }
        GSignal.connect(searchSwitch, "notify::active", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            self.store.setAdvancedSearch(gtk_switch_get_active(crate_switch(self.searchSwitch)) != 0)
            self.store.save()
        }
        // Text is applied with the row's apply button or Enter (a half-typed endpoint is never saved).
        applyOnEnter(modelRow) { $0.setModel($1) }
        applyOnEnter(endpointRow) { $0.setEndpoint($1) }
        applyOnEnter(contactRow) { $0.setContact($1) }
        applyOnEnter(budgetScansRow) { $0.setBudgetScans($1) }
        applyOnEnter(budgetCostRow) { $0.setBudgetCost($1) }
        applyOnEnter(keyRow) { store, key in
            store.setKey(key)
        }
        GSignal.connect(keyRow, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            gtk_editable_set_text(crate_editable(self.keyRow), "")  // Saved: never kept on screen.
        }
        GSignal.connect(keyRow, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            self.store.setKey(self.text(self.keyRow))  // "Test Connection" may use it before it is saved.
        }
        GSignal.connect(testButton, "clicked", owner: widget) { [weak self] in self?.store.testConnection() }
        applyOnEnter(listenBrainzUserRow) { $0.setListenBrainzUser($1) }
        applyOnEnter(listenBrainzTokenRow) { $0.setListenBrainzToken($1) }
        GSignal.connect(listenBrainzTokenRow, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            gtk_editable_set_text(crate_editable(self.listenBrainzTokenRow), "")  // Saved: never kept on screen.
        }
        GSignal.connect(listenBrainzTokenRow, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            self.store.setListenBrainzToken(self.text(self.listenBrainzTokenRow))  // "Test" may use it before it is saved.
        }
        GSignal.connect(listenBrainzUserRow, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            self.store.setListenBrainzUser(self.text(self.listenBrainzUserRow))
        }
        GSignal.connect(listenBrainzTestButton, "clicked", owner: widget) { [weak self] in self?.store.testListenBrainz() }
        applyOnEnter(discogsTokenRow) { $0.setDiscogsToken($1) }
        GSignal.connect(discogsTokenRow, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            gtk_editable_set_text(crate_editable(self.discogsTokenRow), "")  // Saved: never kept on screen.
        }
        GSignal.connect(discogsTokenRow, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            self.store.setDiscogsToken(self.text(self.discogsTokenRow))  // "Test" may use it before it is saved.
        }
        GSignal.connect(discogsTestButton, "clicked", owner: widget) { [weak self] in self?.store.testDiscogs() }
    }

    private func applyOnEnter(_ row: UnsafeMutablePointer<GtkWidget>, _ intent: @escaping @MainActor (PreferencesStore, String) -> Void) {
        GSignal.connect(row, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            intent(self.store, self.text(row))
            self.store.save()
        }
    }

    private func render(_ state: PreferencesState) {
        rendering = true
        defer { rendering = false }
        let index = PreferencesStore.providers.firstIndex { $0.kind == state.provider } ?? 0
        if Int(adw_combo_row_get_selected(crate_combo_row(providerRow))) != index {
            adw_combo_row_set_selected(crate_combo_row(providerRow), UInt32(index))
            setText(keyRow, "")  // A key typed for the previous provider is dropped.
        }
        setText(modelRow, state.model)
        setText(endpointRow, state.endpoint)
        setText(contactRow, state.contact)
        setText(budgetScansRow, state.budgetScans)
        setText(budgetCostRow, state.budgetCost)
        if let usage = state.usage {
            adw_preferences_group_set_description(crate_preferences_group(usageGroup),
                Self.escaped(L10n.tr("%@, estimated from the providers' token counts and the price table.", usage.month) + (usage.priceProblem.map { " " + $0 } ?? "")))
            adw_action_row_set_subtitle(crate_action_row(scansRow), Self.escaped(usage.scans))
            adw_action_row_set_subtitle(crate_action_row(tokensRow), Self.escaped(usage.tokens))
            adw_action_row_set_subtitle(crate_action_row(costRow), Self.escaped(usage.cost))
            adw_action_row_set_subtitle(crate_action_row(budgetStatusRow), Self.escaped(usage.budget))
        }
        if (gtk_switch_get_active(crate_switch(searchSwitch)) != 0) != state.advancedSearch {
            gtk_switch_set_active(crate_switch(searchSwitch), state.advancedSearch ? 1 : 0)
        }
        let modelTitle = state.modelPlaceholder.isEmpty ? L10n.tr("Model") : L10n.tr("Model (empty: %@)", state.modelPlaceholder)
        renderSessionFields(state, modelTitle: modelTitle)
        gtk_widget_set_sensitive(advanced, state.providerFieldsEnabled ? 1 : 0)
        gtk_widget_set_visible(keyRow, state.keyFieldEnabled ? 1 : 0)
        gtk_widget_set_visible(keyStatusRow, state.provider == .none ? 0 : 1)
        gtk_widget_set_visible(testRow, state.provider == .none ? 0 : 1)
        adw_action_row_set_subtitle(crate_action_row(keyStatusRow), Self.escaped(state.keyStatus))
        if let link = state.keyLink {
            gtk_link_button_set_uri(OpaquePointer(keyLink), link.absoluteString)
            Gtk.setWrappingLabel(keyLink, state.keyLinkTitle, maxChars: 28)
            // Whole words, and room for "Get an Anthropic" on a line: the row gives its suffix
            // only its minimum width.
            if let label = gtk_button_get_child(crate_button(keyLink)) {
                gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD)
                gtk_label_set_width_chars(crate_label(label), 16)
            }
        }
        switch state.connection {
        case .untested: adw_action_row_set_subtitle(crate_action_row(testRow), L10n.tr("Sends one tiny request with the key above."))
        case .testing: adw_action_row_set_subtitle(crate_action_row(testRow), L10n.tr("Testing…"))
        case .succeeded(let text), .failed(let text): adw_action_row_set_subtitle(crate_action_row(testRow), Self.escaped(text))
        }
        if state.connection == .testing { Gtk.spin(testSpinner, true) } else { Gtk.spin(testSpinner, false) }
        gtk_widget_set_sensitive(testButton, state.connection == .testing ? 0 : 1)
        if case .failed = state.connection { gtk_widget_add_css_class(testRow, "error") } else { gtk_widget_remove_css_class(testRow, "error") }
        if case .succeeded = state.connection { gtk_widget_add_css_class(testRow, "success") } else { gtk_widget_remove_css_class(testRow, "success") }
        setText(listenBrainzUserRow, state.listenBrainzUser)
        switch state.listenBrainzTest {
        case .untested: adw_action_row_set_subtitle(crate_action_row(listenBrainzTestRow), Self.escaped(state.listenBrainzTokenStatus))
        case .testing: adw_action_row_set_subtitle(crate_action_row(listenBrainzTestRow), L10n.tr("Testing…"))
        case .succeeded(let text), .failed(let text): adw_action_row_set_subtitle(crate_action_row(listenBrainzTestRow), Self.escaped(text))
        }
        gtk_widget_set_sensitive(listenBrainzTestButton, state.listenBrainzTest == .testing ? 0 : 1)
        if case .failed = state.listenBrainzTest { gtk_widget_add_css_class(listenBrainzTestRow, "error") } else { gtk_widget_remove_css_class(listenBrainzTestRow, "error") }
        if case .succeeded = state.listenBrainzTest { gtk_widget_add_css_class(listenBrainzTestRow, "success") } else { gtk_widget_remove_css_class(listenBrainzTestRow, "success") }
        switch state.discogsTest {
        case .untested: adw_action_row_set_subtitle(crate_action_row(discogsTestRow), Self.escaped(state.discogsTokenStatus))
        case .testing: adw_action_row_set_subtitle(crate_action_row(discogsTestRow), L10n.tr("Testing…"))
        case .succeeded(let text), .failed(let text): adw_action_row_set_subtitle(crate_action_row(discogsTestRow), Self.escaped(text))
        }
        gtk_widget_set_sensitive(discogsTestButton, state.discogsTest == .testing ? 0 : 1)
        if case .failed = state.discogsTest { gtk_widget_add_css_class(discogsTestRow, "error") } else { gtk_widget_remove_css_class(discogsTestRow, "error") }
        if case .succeeded = state.discogsTest { gtk_widget_add_css_class(discogsTestRow, "success") } else { gtk_widget_remove_css_class(discogsTestRow, "success") }
        Gtk.setText(noticeLabel, state.overrideNotice ?? "")
        gtk_widget_set_visible(noticeLabel, state.overrideNotice == nil ? 0 : 1)
        Gtk.setText(errorLabel, state.errorMessage ?? "")
        gtk_widget_set_visible(errorLabel, state.errorMessage == nil ? 0 : 1)
        if state.errorMessage != nil { gtk_widget_add_css_class(endpointRow, "error") } else { gtk_widget_remove_css_class(endpointRow, "error") }
    }

    /// Fields a `CRATE_*` variable sets show the value in effect, say so on the row itself, and
    /// cannot be edited here (the variable would win over what is saved).
    private func renderSessionFields(_ state: PreferencesState, modelTitle: String) {
        let entries: [(PreferencesField, UnsafeMutablePointer<GtkWidget>, String)] = [
            (.model, modelRow, modelTitle), (.endpoint, endpointRow, L10n.tr("Endpoint")),
            (.contact, contactRow, L10n.tr("Contact")), (.listenBrainzUser, listenBrainzUserRow, L10n.tr("User Name")),
        ]
        for (field, row, title) in entries {
            let variable = state.setForSession[field]
            adw_preferences_row_set_title(crate_preferences_row(row), variable.map { L10n.tr("%@ — set by %@", title, $0) } ?? title)
            gtk_editable_set_editable(crate_editable(row), variable == nil ? 1 : 0)
            Gtk.setTooltip(row, state.sessionNote(field))
        }
        let providerNote = state.sessionNote(.provider)
        adw_action_row_set_subtitle(crate_action_row(providerRow), providerNote.map(Self.escaped) ?? "")
        gtk_widget_set_sensitive(providerRow, providerNote == nil ? 1 : 0)
        Gtk.setTooltip(providerRow, providerNote)
    }

    /// Row subtitles are markup: text from a server is escaped.
    private static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    private func text(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_editable_get_text(crate_editable(entry)).map { String(cString: $0) } ?? ""
    }

    private func setText(_ entry: UnsafeMutablePointer<GtkWidget>, _ value: String) {
        guard text(entry) != value else { return }
        gtk_editable_set_text(crate_editable(entry), value)
    }
}
