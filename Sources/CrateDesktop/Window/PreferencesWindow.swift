import CGtk
import CrateCore
import Foundation

// Longer than most files here: every row of the Identification, MusicBrainz, ListenBrainz,
// Discogs and usage groups is built and rendered from one PreferencesStore. It splits with that
// store (one small store per page, planned with the core step).
/// Preferences (Ctrl+,) as an `AdwPreferencesWindow` with instant apply: every change is saved
/// as it is made (text fields when their apply button or Enter is pressed); Esc closes. The
/// provider comes first, with where to get a key and a connection test; model, endpoint and web
/// search wait under "Advanced". A thin binding to `PreferencesStore`, which validates and saves;
/// keys are never shown.
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
        widget = adw_preferences_window_new()!
        gtk_window_set_title(crate_window(widget), L10n.tr("Preferences"))
        gtk_window_set_default_size(crate_window(widget), 600, 640)
        gtk_window_set_modal(crate_window(widget), 1)
        adw_preferences_window_set_search_enabled(crate_preferences_window(widget), 0)
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }
        crate_add_local_shortcut(widget, "Escape", "window.close")

        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(crate_preferences_page(page), L10n.tr("Identification"))
        adw_preferences_page_set_icon_name(crate_preferences_page(page), "camera-photo-symbolic")

        // Provider first.
        let providerGroup = adw_preferences_group_new()!
        adw_preferences_group_set_title(crate_preferences_group(providerGroup), L10n.tr("Identification Service"))
        adw_preferences_group_set_description(crate_preferences_group(providerGroup),
            L10n.tr("Crate asks a vision model to identify covers it has not seen before and to write reviews. Without one, it still recognises covers already in your crate, offline."))
        providerRow = adw_combo_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(providerRow), L10n.tr("Provider"))
        let names = Gtk.withCStringArray(PreferencesStore.providers.map(\.name)) { gtk_string_list_new($0)! }
        adw_combo_row_set_model(crate_combo_row(providerRow), crate_list_model(UnsafeMutableRawPointer(names)))
        g_object_unref(UnsafeMutableRawPointer(names))
        keyRow = adw_password_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(keyRow), L10n.tr("API Key"))
        adw_entry_row_set_show_apply_button(crate_entry_row(keyRow), 1)
        keyStatusRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(keyStatusRow), L10n.tr("Key"))
        keyLink = gtk_link_button_new_with_label("https://example.invalid", L10n.tr("Get a key"))!
        gtk_widget_set_valign(keyLink, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(keyStatusRow), keyLink)
        testRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(testRow), L10n.tr("Connection"))
        testSpinner = gtk_spinner_new()!
        testButton = gtk_button_new_with_mnemonic(L10n.tr("_Test Connection"))!
        gtk_widget_set_valign(testButton, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(testRow), testSpinner)
        adw_action_row_add_suffix(crate_action_row(testRow), testButton)
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
        for row in [providerRow, keyRow, keyStatusRow, testRow] { adw_preferences_group_add(crate_preferences_group(providerGroup), row) }

        // Advanced: for people who run their own endpoint or pick a model.
        let advancedGroup = adw_preferences_group_new()!
        advanced = adw_expander_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(advanced), L10n.tr("Advanced"))
        Gtk.setAccessibleLabel(advanced, L10n.tr("Advanced"))
        adw_expander_row_set_subtitle(crate_expander_row(advanced), L10n.tr("Model, endpoint and web search"))
        modelRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(modelRow), L10n.tr("Model"))
        adw_entry_row_set_show_apply_button(crate_entry_row(modelRow), 1)
        endpointRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(endpointRow), L10n.tr("Endpoint"))
        adw_entry_row_set_show_apply_button(crate_entry_row(endpointRow), 1)
        let searchRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(searchRow), L10n.tr("Web Search for Hard Covers"))
        adw_action_row_set_subtitle(crate_action_row(searchRow),
            L10n.tr("When a cover is hard to read, the provider may search the web to finish the identification and to review new releases. Costs more per scan."))
        searchSwitch = gtk_switch_new()!
        gtk_widget_set_valign(searchSwitch, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(searchRow), searchSwitch)
        adw_action_row_set_activatable_widget(crate_action_row(searchRow), searchSwitch)
        for row in [modelRow, endpointRow, searchRow] { adw_expander_row_add_row(crate_expander_row(advanced), row) }
        adw_preferences_group_add(crate_preferences_group(advancedGroup), advanced)

        let musicBrainzGroup = adw_preferences_group_new()!
        adw_preferences_group_set_title(crate_preferences_group(musicBrainzGroup), L10n.tr("MusicBrainz"))
        adw_preferences_group_set_description(crate_preferences_group(musicBrainzGroup),
            L10n.tr("MusicBrainz asks every app for a way to reach its user, such as an e-mail address."))
        contactRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(contactRow), L10n.tr("Contact"))
        adw_entry_row_set_show_apply_button(crate_entry_row(contactRow), 1)
        adw_preferences_group_add(crate_preferences_group(musicBrainzGroup), contactRow)

        // ListenBrainz: whose listening feeds the Crate Wall, and where hearts and ✕s are sent.
        let listenBrainzGroup = adw_preferences_group_new()!
        adw_preferences_group_set_title(crate_preferences_group(listenBrainzGroup), L10n.tr("ListenBrainz"))
        adw_preferences_group_set_description(crate_preferences_group(listenBrainzGroup),
            L10n.tr("Your ListenBrainz listening and recommendations feed the Crate Wall; with your user token, favourites and dislikes are sent back as feedback. Everything works without an account."))
        listenBrainzUserRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(listenBrainzUserRow), L10n.tr("User Name"))
        adw_entry_row_set_show_apply_button(crate_entry_row(listenBrainzUserRow), 1)
        listenBrainzTokenRow = adw_password_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(listenBrainzTokenRow), L10n.tr("User Token"))
        adw_entry_row_set_show_apply_button(crate_entry_row(listenBrainzTokenRow), 1)
        listenBrainzTestRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(listenBrainzTestRow), L10n.tr("Token"))
        listenBrainzTestButton = gtk_button_new_with_mnemonic(L10n.tr("T_est"))!
        gtk_widget_set_valign(listenBrainzTestButton, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(listenBrainzTestRow), listenBrainzTestButton)
        for row in [listenBrainzUserRow, listenBrainzTokenRow, listenBrainzTestRow] {
            adw_preferences_group_add(crate_preferences_group(listenBrainzGroup), row)
        }
        // Discogs: an optional second source; with a personal token, identified albums get a link.
        let discogsGroup = adw_preferences_group_new()!
        adw_preferences_group_set_title(crate_preferences_group(discogsGroup), L10n.tr("Discogs"))
        adw_preferences_group_set_description(crate_preferences_group(discogsGroup),
            L10n.tr("With your Discogs personal access token (Discogs → Settings → Developers), identified albums get a “View on Discogs” link with its match score. Optional."))
        discogsTokenRow = adw_password_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(discogsTokenRow), L10n.tr("Personal Access Token"))
        adw_entry_row_set_show_apply_button(crate_entry_row(discogsTokenRow), 1)
        discogsTestRow = adw_action_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(discogsTestRow), L10n.tr("Token"))
        discogsTestButton = gtk_button_new_with_label(L10n.tr("Test"))!
        gtk_widget_set_valign(discogsTestButton, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(crate_action_row(discogsTestRow), discogsTestButton)
        for row in [discogsTokenRow, discogsTestRow] {
            adw_preferences_group_add(crate_preferences_group(discogsGroup), row)
        }
        // Usage: this month's scans by tier, tokens, the estimated cost, and the optional budget.
        let usage = adw_preferences_group_new()!
        usageGroup = usage
        adw_preferences_group_set_title(crate_preferences_group(usage), L10n.tr("Usage"))
        func infoRow(_ title: String) -> UnsafeMutablePointer<GtkWidget> {
            let row = adw_action_row_new()!
            adw_preferences_row_set_title(crate_preferences_row(row), title)
            adw_preferences_group_add(crate_preferences_group(usage), row)
            return row
        }
        scansRow = infoRow(L10n.tr("Scans"))
        tokensRow = infoRow(L10n.tr("Provider Calls and Tokens"))
        costRow = infoRow(L10n.tr("Estimated Cost"))
        budgetStatusRow = infoRow(L10n.tr("Budget"))
        budgetScansRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(budgetScansRow), L10n.tr("Monthly Scan Budget (empty: none)"))
        adw_entry_row_set_show_apply_button(crate_entry_row(budgetScansRow), 1)
        budgetCostRow = adw_entry_row_new()!
        adw_preferences_row_set_title(crate_preferences_row(budgetCostRow), L10n.tr("Monthly Cost Budget in $ (empty: none)"))
        adw_entry_row_set_show_apply_button(crate_entry_row(budgetCostRow), 1)
        adw_preferences_group_add(crate_preferences_group(usage), budgetScansRow)
        adw_preferences_group_add(crate_preferences_group(usage), budgetCostRow)

        noticeLabel = Gtk.label("", classes: ["dim-label", "caption"])
        Gtk.wrap(noticeLabel)
        errorLabel = Gtk.label("", classes: ["error"])
        Gtk.wrap(errorLabel)
        let messages = adw_preferences_group_new()!
        adw_preferences_group_add(crate_preferences_group(messages), errorLabel)
        adw_preferences_group_add(crate_preferences_group(messages), noticeLabel)

        for group in [providerGroup, advancedGroup, musicBrainzGroup, discogsGroup, listenBrainzGroup, usageGroup, messages] {
            adw_preferences_page_add(crate_preferences_page(page), crate_preferences_group(group))
        }
        adw_preferences_window_add(crate_preferences_window(widget), crate_preferences_page(page))
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
