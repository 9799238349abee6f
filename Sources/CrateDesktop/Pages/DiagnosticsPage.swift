import CGtk
import CrateCore

/// Diagnostics, in a window of its own (menu, the CD Wallet's button, Ctrl+Shift+D): the music
/// folders and their index, crate albums without files or with several candidates, GStreamer's
/// support per format with the package to install, the player in use, MPRIS, and the "CDs"
/// playlist chosen, why, and how each entry resolved. Plain labels only (paths and tags are
/// user data, never markup).
@MainActor
final class DiagnosticsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let content: UnsafeMutablePointer<GtkWidget>
    /// The player and MPRIS lines, read at every render.
    var playerText: () -> String = { "" }
    var mprisText: () -> String = { "" }
    /// How the music folders are watched (nil before the first listing).
    var watchText: () -> String? = { nil }
    private var token: ObservationToken?
    private var rendered: CDsState?

    init(store: CDsStore) {
        let window = adw_window_new()!
        gtk_window_set_title(crate_window(window), L10n.tr("Diagnostics"))
        gtk_window_set_default_size(crate_window(window), 640, 720)
        widget = window
        content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(content, 18) }
        gtk_widget_set_margin_start(content, 12)
        gtk_widget_set_margin_end(content, 12)
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 720)
        adw_clamp_set_child(crate_clamp(clamp), content)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), clamp)
        gtk_widget_set_vexpand(scroller, 1)
        let header = adw_header_bar_new()!
        let refresh = Gtk.iconButton("view-refresh-symbolic", label: L10n.tr("Read the music folders again"))
        adw_header_bar_pack_start(crate_adw_header_bar(header), refresh)
        let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(box, header)
        Gtk.append(box, scroller)
        crate_add_local_shortcut(window, "Escape", "window.close")
        adw_window_set_content(UnsafeMutableRawPointer(window).assumingMemoryBound(to: AdwWindow.self), box)
        GObjectScope.of(widget).connect(refresh, "clicked") { [weak store] in
            guard let store else { return }
            Task { await store.reload() }
        }
        token = store.state.subscribe(initial: true) { [weak self] state in self?.render(state) }
        GObjectScope.of(widget).keepAlive(self)
    }

    func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        if let parent { gtk_window_set_transient_for(crate_window(widget), crate_window(parent)) }
        gtk_window_present(crate_window(widget))
    }

    func render(_ state: CDsState) {
        // Rebuilt only for a new state: a rebuild drops the focused row, and a library that
        // changes every few seconds (a repair pass) kept taking Escape's focus away.
        guard state != rendered else { return }
        rendered = state
        while let child = gtk_widget_get_first_child(content) { gtk_box_remove(crate_box(content), child) }
        switch state.phase {
        case .loading:
            line(L10n.tr("Reading the music folders…"))
            return
        case .failed(let message):
            line(message)
            return
        case .loaded:
            break
        }
        guard let diagnostics = state.diagnostics else { return }
        section(L10n.tr("Music folders"))
        for folder in diagnostics.folders {
            line(PathBytes.displayName(folder.path), detail: folder.exists ? L10n.tr("found") : L10n.tr("not found: choose another folder in Preferences"))
        }
        let counts = diagnostics.counts
        line(L10n.plural("%@ file", "%@ files", counts.files, counts.files), detail: L10n.tr("%@ tracks in %@ albums, %@ unreadable", counts.tracks, counts.albums, counts.unreadable))
        if let watch = watchText() { line(watch) }

        section(L10n.tr("Crate albums and files"))
        line(L10n.tr("%@ matched", diagnostics.matchedCount), detail: L10n.tr("%@ with no files, %@ ambiguous", diagnostics.unmatched.count, diagnostics.ambiguous.count))
        for album in diagnostics.ambiguous {
            line(L10n.tr("Ambiguous: %@ — %@", album.artist, album.title), detail: L10n.tr("Several folders match; none is guessed: %@", album.folders.joined(separator: "; ")))
        }
        for album in diagnostics.unmatched.prefix(50) {
            line(L10n.tr("Not in your music folder: %@ — %@", album.artist, album.title))
        }
        if diagnostics.unmatched.count > 50 { line(L10n.tr("… and %@ more", diagnostics.unmatched.count - 50)) }

        section(L10n.tr("Playback"))
        line(L10n.tr("Player"), detail: playerText())
        line(L10n.tr("MPRIS"), detail: mprisText())
        for format in diagnostics.formats {
            if format.isAvailable {
                line(format.format, detail: L10n.tr("plays"))
            } else {
                line(format.format, detail: L10n.tr("Install %@ (missing %@)", format.package, format.missing.joined(separator: ", ")))
            }
        }

        section(L10n.tr("CDs playlist"))
        let wallet = diagnostics.wallet
        line(wallet.playlist.map { PathBytes.displayName($0.path) } ?? L10n.tr("None"), detail: wallet.choice)
        for candidate in wallet.candidates where candidate != wallet.playlist {
            line(L10n.tr("Also found: %@", PathBytes.displayName(candidate.path)), detail: L10n.tr("%@ entries", candidate.itemCount))
        }
        if wallet.playlist != nil {
            line(L10n.tr("%@ entries resolved, %@ unresolved", wallet.resolvedCount, wallet.unresolvedCount), detail: L10n.tr("%@ discs", wallet.discs.count))
            for entry in wallet.entries.prefix(200) {
                line(L10n.tr("%@. %@", entry.line, entry.text), detail: entry.problem.map { L10n.tr("unresolved: %@", $0) } ?? L10n.tr("resolved"))
            }
        }
        WidgetEvents.say("diagnostics shown folders=\(diagnostics.folders.count) files=\(counts.files) formats=\(diagnostics.formats.filter(\.isAvailable).count)/\(diagnostics.formats.count) playlist=\(wallet.playlist == nil ? "none" : "found")")
    }

    private func section(_ title: String) {
        let label = Gtk.label(title, classes: ["heading"])
        gtk_widget_set_margin_top(label, 12)
        Gtk.append(content, label)
    }

    private func line(_ title: String, detail: String? = nil) {
        let row = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        let label = Gtk.label(title)
        Gtk.wrap(label)
        gtk_label_set_selectable(crate_label(label), 1)
        Gtk.append(row, label)
        if let detail, !detail.isEmpty {
            let small = Gtk.label(detail, classes: ["dim-label", "caption"])
            Gtk.wrap(small)
            Gtk.append(row, small)
        }
        Gtk.append(content, row)
    }
}
