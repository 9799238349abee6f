import CGtk
import Foundation
import CrateCore

/// The CD Wallet: the albums of the "CDs" playlist as a wallet of discs, in wallet order (artist
/// sort key, album, id). Every disc is its whole album; a disc in the crate plays through the
/// player (the wallet's later discs follow), one that is not says so; playlist entries that name
/// no file of the music folder are listed under "Not in your music folder" with the reason.
@MainActor
final class CDsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let summary: UnsafeMutablePointer<GtkWidget>
    private let discList: UnsafeMutablePointer<GtkWidget>
    private let missingHeading: UnsafeMutablePointer<GtkWidget>
    private let missingList: UnsafeMutablePointer<GtkWidget>
    private let empty = EmptyStateView(icon: "media-optical-symbolic", title: L10n.tr("No CDs playlist"),
                                       detail: L10n.tr("Put a playlist named CDs (CDs.m3u, CDs.m3u8 or CDs.xspf) in your music folder: every album it names becomes a disc in your wallet."))
    /// Play pressed on a disc: its crate album id.
    var onPlay: ((Int64) -> Void)?
    /// "Add to Crate" pressed on a disc that is not in the crate: its disc id.
    var onAdd: ((String) -> Void)?
    /// The Diagnostics button.
    var onDiagnostics: (() -> Void)?
    /// The cover thumbnail of a crate album (a file in the artwork cache), nil when it has none.
    var thumbnail: ((Int64) async -> String?)?
    /// Called with the album id when a disc's cover is on screen.
    var onCover: ((Int64) -> Void)?
    /// The disc rows' play buttons, by crate album id (UI tests click them).
    private(set) var playButtons: [(albumID: Int64, button: UnsafeMutablePointer<GtkWidget>)] = []
    private var shown: CDWallet?
    /// The rows of discs in the crate, by crate album id, with their disc icon (for the now-playing mark).
    private var discRows: [Int64: (row: UnsafeMutablePointer<GtkWidget>, icon: UnsafeMutablePointer<GtkWidget>)] = [:]
    /// The album playing (true) or paused (false) now, as the grid marks it.
    private var nowPlaying: (id: Int64, playing: Bool)?

    init() {
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_widget_set_margin_top(content, 18)
        gtk_widget_set_margin_bottom(content, 18)
        gtk_widget_set_margin_start(content, 12)
        gtk_widget_set_margin_end(content, 12)

        let top = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        let titles = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_hexpand(titles, 1)
        Gtk.append(titles, Gtk.label(L10n.tr("CD Wallet"), classes: ["title-2"]))
        summary = Gtk.label("", classes: ["dim-label"])
        Gtk.wrap(summary)
        Gtk.append(titles, summary)
        Gtk.append(top, titles)
        let diagnostics = gtk_button_new_with_mnemonic(L10n.tr("_Diagnostics"))!
        Gtk.setTooltip(diagnostics, L10n.tr("Music folders, formats and the CDs playlist (Ctrl+Shift+D)"))
        gtk_widget_set_valign(diagnostics, GTK_ALIGN_START)
        Gtk.append(top, diagnostics)
        Gtk.append(content, top)

        discList = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(discList), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(discList, "boxed-list")
        Gtk.setAccessibleLabel(discList, L10n.tr("Discs in the wallet"))
        Gtk.append(content, discList)

        missingHeading = Gtk.label(L10n.tr("Not in your music folder"), classes: ["heading"])
        gtk_widget_set_margin_top(missingHeading, 12)
        Gtk.append(content, missingHeading)
        missingList = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(missingList), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(missingList, "boxed-list")
        Gtk.setAccessibleLabel(missingList, L10n.tr("Not in your music folder"))
        Gtk.append(content, missingList)

        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 760)
        adw_clamp_set_child(crate_clamp(clamp), content)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), clamp)
        gtk_widget_set_vexpand(scroller, 1)

        let loading = gtk_spinner_new()!
        Gtk.spin(loading, true)
        gtk_widget_set_halign(loading, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(loading, GTK_ALIGN_CENTER)

        // The empty page keeps the Diagnostics button: why there is no wallet is there.
        let emptyBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        gtk_widget_set_valign(emptyBox, GTK_ALIGN_CENTER)
        Gtk.append(emptyBox, empty.widget)
        let emptyDiagnostics = gtk_button_new_with_mnemonic(L10n.tr("Show _Diagnostics"))!
        gtk_widget_set_halign(emptyDiagnostics, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(emptyDiagnostics, "pill")
        Gtk.append(emptyBox, emptyDiagnostics)
        let emptyScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(emptyScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(emptyScroller), emptyBox)

        stack = gtk_stack_new()!
        gtk_stack_add_named(crate_stack(stack), loading, "loading")
        gtk_stack_add_named(crate_stack(stack), scroller, "wallet")
        gtk_stack_add_named(crate_stack(stack), emptyScroller, "empty")
        gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        widget = stack

        for button in [diagnostics, emptyDiagnostics] {
            GObjectScope.of(widget).connect(button, "clicked") { [weak self] in self?.onDiagnostics?() }
        }
    }

    func render(_ state: CDsState) {
        switch state.phase {
        case .loading:
            gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        case .failed(let message):
            empty.update(title: L10n.tr("The wallet could not be read"), detail: message)
            WidgetEvents.say("cds failed \(message)")
            gtk_stack_set_visible_child_name(crate_stack(stack), "empty")
        case .loaded:
            guard let wallet = state.wallet else { return }
            if wallet.playlist == nil {
                empty.update(title: L10n.tr("No CDs playlist"), detail: L10n.tr("%@ Every album a CDs playlist names becomes a disc in your wallet.", wallet.choice))
                gtk_stack_set_visible_child_name(crate_stack(stack), "empty")
                shown = wallet
                WidgetEvents.say("cds shown discs=0 unresolved=0 playlist=none")
                return
            }
            gtk_stack_set_visible_child_name(crate_stack(stack), "wallet")
            guard wallet != shown else { return }
            shown = wallet
            fill(wallet)
        }
    }

    private func fill(_ wallet: CDWallet) {
        let discs = wallet.discs.count
        let playlistName = wallet.playlist.map { PathBytes.displayName($0.path) } ?? ""
        let discText = L10n.plural("%@ disc", "%@ discs", discs, discs)
        Gtk.setText(summary, L10n.tr("%@ from %@", discText, playlistName))
        Self.removeRows(discList)
        Self.removeRows(missingList)
        playButtons = []
        discRows = [:]
        for disc in wallet.discs {
            gtk_list_box_append(crate_list_box(discList), discRow(disc))
        }
        gtk_widget_set_visible(discList, discs > 0 ? 1 : 0)
        let unresolved = wallet.entries.filter { $0.discID == nil }
        for entry in unresolved {
            gtk_list_box_append(crate_list_box(missingList), missingRow(entry))
        }
        gtk_widget_set_visible(missingHeading, unresolved.isEmpty ? 0 : 1)
        gtk_widget_set_visible(missingList, unresolved.isEmpty ? 0 : 1)
        WidgetEvents.say("cds shown discs=\(discs) unresolved=\(unresolved.count) playlist=\((playlistName as NSString).lastPathComponent)")
        applyNowPlaying()
    }

    /// Marks the disc of the album playing (or paused) now, like the grid's badge; nil unmarks.
    func setNowPlaying(albumID: Int64?, playing: Bool) {
        let next = albumID.map { (id: $0, playing: playing) }
        guard next?.id != nowPlaying?.id || next?.playing != nowPlaying?.playing else { return }
        nowPlaying = next
        applyNowPlaying()
    }

    private func applyNowPlaying() {
        var marked: Int64?
        for (id, parts) in discRows {
            let playing = nowPlaying?.id == id ? nowPlaying?.playing : nil
            // The list box row around the box takes the highlight (the whole row, as the grid's tile).
            let row = gtk_widget_get_parent(parts.row) ?? parts.row
            if let playing {
                marked = id
                gtk_widget_add_css_class(row, "now-playing")
                gtk_widget_remove_css_class(parts.icon, "dim-label")
                gtk_widget_add_css_class(parts.icon, "accent")
                gtk_image_set_from_icon_name(crate_image(parts.icon), playing ? "audio-volume-high-symbolic" : "media-playback-pause-symbolic")
                Gtk.setTooltip(parts.icon, playing ? L10n.tr("Playing") : L10n.tr("Paused"))
            } else {
                gtk_widget_remove_css_class(row, "now-playing")
                gtk_widget_remove_css_class(parts.icon, "accent")
                gtk_widget_add_css_class(parts.icon, "dim-label")
                gtk_image_set_from_icon_name(crate_image(parts.icon), "media-optical-symbolic")
                Gtk.setTooltip(parts.icon, nil)
            }
        }
        WidgetEvents.say("cds-now-playing \(marked.map(String.init) ?? "none") \(nowPlaying?.playing == true ? "playing" : "paused")")
    }

    private func discRow(_ disc: WalletDisc) -> UnsafeMutablePointer<GtkWidget> {
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(row, 8) }
        gtk_widget_set_margin_start(row, 12)
        gtk_widget_set_margin_end(row, 8)
        // The album's cover (a grey square until it is read, or without one); the disc icon over
        // it when the album has no cover, and the playing mark over it while it plays.
        let cover = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(cover), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(crate_picture(cover), 1)
        gtk_widget_set_size_request(cover, 48, 48)
        gtk_widget_add_css_class(cover, "artwork-missing")
        let icon = gtk_image_new_from_icon_name("media-optical-symbolic")!
        gtk_image_set_pixel_size(crate_image(icon), 32)
        gtk_widget_add_css_class(icon, "dim-label")
        let art = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(art), cover)
        gtk_overlay_add_overlay(crate_overlay(art), icon)
        gtk_widget_set_valign(art, GTK_ALIGN_CENTER)
        Gtk.append(row, art)
        if let id = disc.crateAlbumID, let thumbnail {
            g_object_ref(UnsafeMutableRawPointer(cover))
            Task { @MainActor [weak self] in
                guard let path = await thumbnail(id) else { return g_object_unref(UnsafeMutableRawPointer(cover)) }
                TextureCache.thumbnails.texture(for: path) { [weak self] texture in
                    defer { g_object_unref(UnsafeMutableRawPointer(cover)) }
                    guard let texture else { return }
                    gtk_picture_set_paintable(crate_picture(cover), crate_paintable(UnsafeMutableRawPointer(texture)))
                    gtk_widget_remove_css_class(cover, "artwork-missing")
                    // The cover says which disc it is; the icon comes back only to mark playback.
                    gtk_widget_add_css_class(icon, "over-cover")
                    self?.onCover?(id)
                }
            }
        }
        let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        let title = Gtk.label(disc.title, classes: ["heading"])
        Gtk.wrap(title)
        let artist = Gtk.label(disc.artist)
        Gtk.wrap(artist)
        var details = L10n.plural("%@ track", "%@ tracks", disc.trackCount, disc.trackCount)
        if disc.discCount > 1 { details = L10n.tr("%@ discs · %@", disc.discCount, details) }
        if disc.crateAlbumID == nil { details = L10n.tr("%@ · not in your crate", details) }
        let detail = Gtk.label(details, classes: ["dim-label", "caption"])
        Gtk.wrap(detail)
        for label in [title, artist, detail] { Gtk.append(text, label) }
        Gtk.append(row, text)
        if let id = disc.crateAlbumID {
            let play = Gtk.iconButton("media-playback-start-symbolic", label: L10n.tr("Play %@", disc.title))
            gtk_widget_add_css_class(play, "circular")
            gtk_widget_set_valign(play, GTK_ALIGN_CENTER)
            GObjectScope.of(play).connect(play, "clicked") { [weak self] in self?.onPlay?(id) }
            Gtk.append(row, play)
            playButtons.append((id, play))
            discRows[id] = (row, icon)
        } else {
            let add = Gtk.iconButton("list-add-symbolic", label: L10n.tr("Add %@ to the crate", disc.title))
            gtk_widget_add_css_class(add, "circular")
            gtk_widget_set_valign(add, GTK_ALIGN_CENTER)
            let discID = disc.id
            GObjectScope.of(add).connect(add, "clicked") { [weak self] in self?.onAdd?(discID) }
            Gtk.append(row, add)
        }
        return row
    }

    private func missingRow(_ entry: WalletEntry) -> UnsafeMutablePointer<GtkWidget> {
        let row = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        for edge in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(row, 8) }
        gtk_widget_set_margin_start(row, 12)
        gtk_widget_set_margin_end(row, 12)
        let name = Gtk.label(entry.text)
        Gtk.wrap(name)
        let reason = Gtk.label(L10n.tr("Line %@: %@", entry.line, entry.problem ?? L10n.tr("not resolved")), classes: ["dim-label", "caption"])
        Gtk.wrap(reason)
        Gtk.append(row, name)
        Gtk.append(row, reason)
        return row
    }

    static func removeRows(_ list: UnsafeMutablePointer<GtkWidget>) {
        while let child = gtk_widget_get_first_child(list) {
            gtk_list_box_remove(crate_list_box(list), child)
        }
    }
}
