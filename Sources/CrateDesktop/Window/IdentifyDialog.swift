import CGtk
import CrateCore
import Foundation

/// "Tell Crate What It Is": when a scan found nothing (or the wrong album), the user types the
/// artist and title (and, if they like, year, label, catalogue number); Crate lists the
/// MusicBrainz releases that fit with their covers and scores; a click saves the one chosen as
/// a scan and closes the dialog. Escape or the close button leave everything as it was.
@MainActor
final class IdentifyDialog {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let store: IdentifyStore
    private var fields: [(name: String, row: UnsafeMutablePointer<GtkWidget>)] = []
    private let searchButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let messageLabel: UnsafeMutablePointer<GtkWidget>
    /// The releases that fit (the list "Not this album?" uses, opened).
    let results = CandidateList()
    /// The release the user chose.
    var onChoose: ((Album) -> Void)?
    private var token: ObservationToken?

    /// `subject`: what the dialog is for ("cover.jpg", or the album it replaces), said under its title.
    init(store: IdentifyStore, subject: String, artist: String = "", title: String = "",
         loadCover: @escaping (Album) async -> URL?) {
        self.store = store
        widget = adw_window_new()!
        gtk_window_set_title(crate_window(widget), L10n.tr("Tell Crate What It Is"))
        gtk_window_set_default_size(crate_window(widget), 480, 640)
        gtk_window_set_modal(crate_window(widget), 1)
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(content, 18) }
        gtk_widget_set_margin_start(content, 12)
        gtk_widget_set_margin_end(content, 12)
        let intro = Gtk.label(L10n.tr("What is %@? Crate looks it up on MusicBrainz; the release you choose is saved like a scan.", subject),
                              classes: ["dim-label"])
        Gtk.wrap(intro)
        Gtk.append(content, intro)
        let group = adw_preferences_group_new()!
        for (name, label, text) in [("artist", L10n.tr("Artist"), artist), ("title", L10n.tr("Title"), title), ("year", L10n.tr("Year (optional)"), ""),
                                    ("label", L10n.tr("Label (optional)"), ""), ("catno", L10n.tr("Catalogue number (optional)"), "")] {
            let row = adw_entry_row_new()!
            adw_preferences_row_set_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self), label)
            gtk_editable_set_text(crate_editable(row), text)
            adw_preferences_group_add(crate_preferences_group(group), row)
            fields.append((name, row))
        }
        Gtk.append(content, group)
        searchButton = gtk_button_new_with_mnemonic(L10n.tr("_Search MusicBrainz"))!
        gtk_widget_add_css_class(searchButton, "suggested-action")
        gtk_widget_add_css_class(searchButton, "pill")
        gtk_widget_set_halign(searchButton, GTK_ALIGN_CENTER)
        Gtk.append(content, searchButton)
        spinner = gtk_spinner_new()!
        Gtk.setAccessibleLabel(spinner, L10n.tr("Searching MusicBrainz"))
        messageLabel = Gtk.label("", classes: ["caption"], xalign: 0.5)
        Gtk.wrap(messageLabel)
        Gtk.append(content, spinner)
        Gtk.append(content, messageLabel)
        results.setTitle(L10n.tr("Releases that fit"))
        results.loadCover = loadCover
        Gtk.append(content, results.widget)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 560)
        adw_clamp_set_child(crate_clamp(clamp), content)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), clamp)
        gtk_widget_set_vexpand(scroller, 1)
        let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(box, adw_header_bar_new()!)
        Gtk.append(box, scroller)
        crate_add_local_shortcut(widget, "Escape", "window.close")
        adw_window_set_content(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: AdwWindow.self), box)
        let scope = GObjectScope.of(widget)
        scope.connect(searchButton, "clicked") { [weak self] in self?.search() }
        // Enter in any field searches.
        for (_, row) in fields { scope.connect(row, "entry-activated") { [weak self] in self?.search() } }
        store.reset()
        token = store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }
        scope.keepAlive(self)
    }

    func present(over parent: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_transient_for(crate_window(widget), crate_window(parent))
        gtk_window_present(crate_window(widget))
        // The first empty field takes the typing.
        if let empty = fields.first(where: { text(of: $0.row).isEmpty }) ?? fields.first { gtk_widget_grab_focus(empty.row) }
    }

    func close() {
        gtk_window_close(crate_window(widget))
    }

    // MARK: - Private

    private func text(of row: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_editable_get_text(crate_editable(row)).map { String(cString: $0) } ?? ""
    }

    private func field(_ name: String) -> String {
        fields.first { $0.name == name }.map { text(of: $0.row) } ?? ""
    }

    private func search() {
        let store = self.store
        let (artist, title, year, label, catno) = (field("artist"), field("title"), field("year"), field("label"), field("catno"))
        Task { await store.search(artist: artist, title: title, year: year, label: label, catalogNumber: catno) }
    }

    private func render(_ state: IdentifyState) {
        let searching = state.phase == .searching
        crate_spinner_set(spinner, searching ? 1 : 0)
        gtk_widget_set_visible(spinner, searching ? 1 : 0)
        gtk_widget_set_sensitive(searchButton, searching ? 0 : 1)
        var message: String?
        var isError = false
        switch state.phase {
        case .idle, .searching:
            results.show([])
        case .found(let candidates):
            if candidates.isEmpty { message = L10n.tr("MusicBrainz has no release that fits. Check the spelling, or leave out the year or label.") }
            results.reconsider(candidates, expanded: true) { [weak self] album in self?.onChoose?(album) }
        case .failed(let text):
            message = text
            isError = true
        }
        Gtk.setText(messageLabel, message ?? "")
        gtk_widget_set_visible(messageLabel, message == nil ? 0 : 1)
        if isError { gtk_widget_add_css_class(messageLabel, "error") } else { gtk_widget_remove_css_class(messageLabel, "error") }
    }
}
