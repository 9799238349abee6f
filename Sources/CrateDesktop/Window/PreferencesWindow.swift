import CGtk
import CrateCore
import Foundation

/// Preferences (Ctrl+,) as an `AdwPreferencesWindow` with instant apply: every change is saved
/// as it is made (text fields when their apply button or Enter is pressed); Esc closes. The
/// provider comes first, with where to get a key and a connection test; model, endpoint and web
/// search wait under "Advanced". The rows are laid out in data/ui/preferences-window.ui; this is
/// a thin binding of them to the stores of `PreferencesStore` (provider, accounts, usage), which
/// validate and save; keys are never shown.
@MainActor
final class PreferencesWindow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let store: PreferencesStore
    /// The Collection page (added by the application with the other pages that need its parts).
    var collectionPage: MusicBrainzCollectionPage?
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
    private let listenSwitches: [(ListenService, UnsafeMutablePointer<GtkWidget>)]
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
        listenSwitches = [(.listenBrainz, ui.listenBrainzListens), (.lastFM, ui.lastFMListens)]
        usageGroup = ui.usage; scansRow = ui.scans; tokensRow = ui.tokens; costRow = ui.cost
        budgetStatusRow = ui.budgetStatus; budgetScansRow = ui.budgetScans; budgetCostRow = ui.budgetCost
        noticeLabel = ui.notice; errorLabel = ui.error
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }

        let names = Gtk.withCStringArray(ProviderPreferencesStore.providers.map(\.name)) { gtk_string_list_new($0)! }
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

        store.provider.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        store.accounts.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        store.usage.state.subscribe(initial: true) { [weak self] state in self?.render(state) }.store(in: &tokens)
        store.provider.key.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.render(state, row: self.testRow, button: self.testButton, idle: L10n.tr("Sends one tiny request with the key above."))
            adw_action_row_set_subtitle(crate_action_row(self.keyStatusRow), Self.escaped(state.status))
            Gtk.spin(self.testSpinner, state.check == .checking)
        }.store(in: &tokens)
        store.accounts.listenBrainz.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.render(state, row: self.listenBrainzTestRow, button: self.listenBrainzTestButton, idle: state.status)
        }.store(in: &tokens)
        store.accounts.discogs.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.render(state, row: self.discogsTestRow, button: self.discogsTestButton, idle: state.status)
        }.store(in: &tokens)
        renderSessionFields()
        renderNotice()
        connectSignals()
        _ = LastFMConnectRow(rows: ui, store: store.lastFM)
    }

    func present() {
        gtk_window_present(crate_window(widget))
        Task { await store.usage.refreshUsage() }
    }

    // MARK: - Private

    private func connectSignals() {
        let provider = store.provider, accounts = store.accounts, usage = store.usage
        GSignal.connect(providerRow, "notify::selected", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            let index = Int(adw_combo_row_get_selected(crate_combo_row(self.providerRow)))
            guard ProviderPreferencesStore.providers.indices.contains(index) else { return }
            provider.selectProvider(ProviderPreferencesStore.providers[index].kind)
            provider.save()
        }
        GSignal.connect(searchSwitch, "notify::active", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.rendering else { return }
            provider.setAdvancedSearch(gtk_switch_get_active(crate_switch(self.searchSwitch)) != 0)
            provider.save()
        }
        // Text is applied with the row's apply button or Enter (a half-typed endpoint is never saved).
        applyOnEnter(modelRow) { provider.setModel($0); provider.save() }
        applyOnEnter(endpointRow) { provider.setEndpoint($0); provider.save() }
        applyOnEnter(contactRow) { accounts.setContact($0); accounts.save() }
        applyOnEnter(budgetScansRow) { usage.setBudgetScans($0); usage.save() }
        applyOnEnter(budgetCostRow) { usage.setBudgetCost($0); usage.save() }
        applyOnEnter(listenBrainzUserRow) { accounts.setListenBrainzUser($0); accounts.save() }
        // The secrets: a typed one may be tested before it is saved; once saved it is never kept on screen.
        bindSecret(keyRow, to: provider.key) { provider.save() }
        bindSecret(listenBrainzTokenRow, to: accounts.listenBrainz) { accounts.save() }
        bindSecret(discogsTokenRow, to: accounts.discogs) { accounts.save() }
        GSignal.connect(listenBrainzUserRow, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            accounts.setListenBrainzUser(self.text(self.listenBrainzUserRow))
        }
        GSignal.connect(testButton, "clicked", owner: widget) { provider.testConnection() }
        GSignal.connect(listenBrainzTestButton, "clicked", owner: widget) { accounts.testListenBrainz() }
        GSignal.connect(discogsTestButton, "clicked", owner: widget) { accounts.testDiscogs() }
        for (service, toggle) in listenSwitches {
            GSignal.connect(toggle, "notify::active", owner: widget) { [weak self] (_: UnsafeMutableRawPointer?) in
                guard let self, !self.rendering else { return }
                accounts.setListens(service, on: gtk_switch_get_active(crate_switch(toggle)) != 0)
            }
        }
    }

    private func applyOnEnter(_ row: UnsafeMutablePointer<GtkWidget>, _ intent: @escaping @MainActor (String) -> Void) {
        GSignal.connect(row, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            intent(self.text(row))
        }
    }

    /// A password row bound to a credential store: every edit goes to the store (a check under
    /// way is cancelled), apply saves and clears the row.
    private func bindSecret<Context>(_ row: UnsafeMutablePointer<GtkWidget>, to credential: CredentialCheckStore<Context>,
                                     save: @escaping @MainActor () -> Void) {
        GSignal.connect(row, "apply", owner: widget) { [weak self] in
            guard let self else { return }
            credential.setSecret(self.text(row))
            save()
            gtk_editable_set_text(crate_editable(row), "")  // Saved: never kept on screen.
        }
        GSignal.connect(row, "changed", owner: widget) { [weak self] in
            guard let self, !self.rendering else { return }
            credential.setSecret(self.text(row))
        }
    }

    private func render(_ state: ProviderPreferencesState) {
        rendering = true
        defer { rendering = false }
        let index = ProviderPreferencesStore.providers.firstIndex { $0.kind == state.provider } ?? 0
        if Int(adw_combo_row_get_selected(crate_combo_row(providerRow))) != index {
            adw_combo_row_set_selected(crate_combo_row(providerRow), UInt32(index))
            setText(keyRow, "")  // A key typed for the previous provider is dropped.
        }
        setText(modelRow, state.model)
        setText(endpointRow, state.endpoint)
        if (gtk_switch_get_active(crate_switch(searchSwitch)) != 0) != state.advancedSearch {
            gtk_switch_set_active(crate_switch(searchSwitch), state.advancedSearch ? 1 : 0)
        }
        let modelTitle = state.modelPlaceholder.isEmpty ? L10n.tr("Model") : L10n.tr("Model (empty: %@)", state.modelPlaceholder)
        renderSessionField(.model, modelRow, title: modelTitle)
        gtk_widget_set_sensitive(advanced, state.providerFieldsEnabled ? 1 : 0)
        gtk_widget_set_visible(keyRow, state.keyFieldEnabled ? 1 : 0)
        gtk_widget_set_visible(keyStatusRow, state.provider == .none ? 0 : 1)
        gtk_widget_set_visible(testRow, state.provider == .none ? 0 : 1)
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
        if state.errorMessage != nil { gtk_widget_add_css_class(endpointRow, "error") } else { gtk_widget_remove_css_class(endpointRow, "error") }
        renderError()
    }

    private func render(_ state: AccountsPreferencesState) {
        rendering = true
        defer { rendering = false }
        setText(contactRow, state.contact)
        setText(listenBrainzUserRow, state.listenBrainzUser)
        for (service, toggle) in listenSwitches {
            let on = service == .listenBrainz ? state.listenBrainzListens : state.lastFMListens
            if (gtk_switch_get_active(crate_switch(toggle)) != 0) != on { gtk_switch_set_active(crate_switch(toggle), on ? 1 : 0) }
        }
        renderError()
    }

    private func render(_ state: UsagePreferencesState) {
        rendering = true
        defer { rendering = false }
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
        renderError()
    }

    /// A "Test" row: the saved secret's status (or `idle`'s text) until tested, then the answer.
    private func render(_ state: CredentialState, row: UnsafeMutablePointer<GtkWidget>, button: UnsafeMutablePointer<GtkWidget>, idle: String) {
        adw_action_row_set_subtitle(crate_action_row(row), Self.escaped(state.check.message ?? idle))
        gtk_widget_set_sensitive(button, state.check == .checking ? 0 : 1)
        if state.check.isFailure { gtk_widget_add_css_class(row, "error") } else { gtk_widget_remove_css_class(row, "error") }
        if case .valid = state.check { gtk_widget_add_css_class(row, "success") } else { gtk_widget_remove_css_class(row, "success") }
    }

    /// One line at the bottom for whichever group could not save.
    private func renderError() {
        let message = store.provider.state.value.errorMessage ?? store.accounts.state.value.errorMessage ?? store.usage.state.value.errorMessage
        Gtk.setText(errorLabel, message ?? "")
        gtk_widget_set_visible(errorLabel, message == nil ? 0 : 1)
    }

    private func renderNotice() {
        Gtk.setText(noticeLabel, store.settings.overrideNotice ?? "")
        gtk_widget_set_visible(noticeLabel, store.settings.overrideNotice == nil ? 0 : 1)
    }

    /// Fields a `CRATE_*` variable sets show the value in effect, say so on the row itself, and
    /// cannot be edited here (the variable would win over what is saved).
    private func renderSessionFields() {
        renderSessionField(.endpoint, endpointRow, title: L10n.tr("Endpoint"))
        renderSessionField(.contact, contactRow, title: L10n.tr("Contact"))
        renderSessionField(.listenBrainzUser, listenBrainzUserRow, title: L10n.tr("User Name"))
        let providerNote = store.settings.sessionNote(.provider)
        adw_action_row_set_subtitle(crate_action_row(providerRow), providerNote.map(Self.escaped) ?? "")
        gtk_widget_set_sensitive(providerRow, providerNote == nil ? 1 : 0)
        Gtk.setTooltip(providerRow, providerNote)
    }

    private func renderSessionField(_ field: PreferencesField, _ row: UnsafeMutablePointer<GtkWidget>, title: String) {
        let variable = store.settings.setForSession[field]
        adw_preferences_row_set_title(crate_preferences_row(row), variable.map { L10n.tr("%@ — set by %@", title, $0) } ?? title)
        gtk_editable_set_editable(crate_editable(row), variable == nil ? 1 : 0)
        Gtk.setTooltip(row, store.settings.sessionNote(field))
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
