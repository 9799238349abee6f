import CGtk
import CrateCore
import Foundation

/// "Not this album?": the other releases the scan could have been, each a clickable row with
/// its cover thumbnail, title, artist, year and match score; a click switches to it.
@MainActor
final class CandidateList {
    static let thumbnailSize: Int32 = 48

    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var onChoose: ((Album) -> Void)?
    /// Finds a candidate's cover (the artwork cache, or the Cover Art Archive).
    var loadCover: ((Album) async -> URL?)?
    /// Bumped by every `show`, so a cover that arrives for an older list is dropped.
    private var generation = 0
    private var shown: [ScanCandidate] = []
    /// Called after a non-empty list is shown, with its rows in order (test events).
    var onShown: (([UnsafeMutablePointer<GtkWidget>]) -> Void)?
    /// Called after every `show`: the rows as "Title (score text)", and whether the list is open.
    var onListed: (([String], Bool) -> Void)?

    init() {
        widget = gtk_expander_new(L10n.tr("Not this album?"))!
        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_widget_add_css_class(list, "candidates")
        gtk_widget_set_margin_top(list, 8)
        gtk_expander_set_child(OpaquePointer(widget), list)
        gtk_widget_set_visible(widget, 0)
        GObjectScope.of(widget).connect(list, "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(crate_list_box_row(row)))
            guard self.shown.indices.contains(index) else { return }
            self.onChoose?(self.shown[index].album)
        }
    }

    /// The expander's title ("Not this album?" unless told otherwise).
    func setTitle(_ title: String) {
        gtk_expander_set_label(OpaquePointer(widget), title)
    }

    /// Shows the runners-up `store` offers and sends a pick back to it; redraws only when they
    /// change, so hiding the list (another album selected) lasts until the next scan.
    func bind(to store: ScanStore) -> ObservationToken {
        let choose: (Album) -> Void = { [weak store] album in store?.choose(album) }
        onChoose = choose
        var shown: [ScanCandidate] = []
        return store.state.subscribe(initial: true) { [weak self] state in
            guard state.candidates != shown else { return }
            shown = state.candidates
            self?.onChoose = choose
            self?.show(shown)
        }
    }

    /// Shows the runners-up of an older scan (an album's "Not this album?" menu item opens them;
    /// an album picked in the grid lists them closed); a pick goes to `choose` (until the next
    /// scan's list replaces them).
    func reconsider(_ candidates: [ScanCandidate], expanded: Bool = true, choose: @escaping (Album) -> Void) {
        onChoose = choose
        show(candidates, expanded: expanded)
    }

    func show(_ candidates: [ScanCandidate], expanded: Bool = true) {
        shown = Array(candidates.prefix(5))
        generation += 1
        let current = generation
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(crate_list_box(list), child) }
        for candidate in candidates.prefix(5) {
            let album = candidate.album
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_activatable(crate_list_box_row(row), 1)
            gtk_widget_add_css_class(row, "candidate-row")
            Gtk.setTooltip(row, L10n.tr("Switch to this album"))
            let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            gtk_widget_set_margin_top(box, 6)
            gtk_widget_set_margin_bottom(box, 6)
            gtk_widget_set_margin_start(box, 6)
            gtk_widget_set_margin_end(box, 10)
            let picture = gtk_picture_new()!
            gtk_picture_set_content_fit(crate_picture(picture), GTK_CONTENT_FIT_COVER)
            gtk_picture_set_can_shrink(crate_picture(picture), 1)
            gtk_widget_set_size_request(picture, Self.thumbnailSize, Self.thumbnailSize)
            gtk_widget_set_valign(picture, GTK_ALIGN_CENTER)
            gtk_widget_add_css_class(picture, "artwork-missing")
            gtk_widget_add_css_class(picture, "candidate-thumbnail")
            let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
            gtk_widget_set_hexpand(text, 1)
            gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
            // Plain text: from MusicBrainz.
            let title = Gtk.label(album.title, classes: ["heading"])
            let year = album.year.map { " · \($0)" } ?? ""
            let artist = Gtk.label(album.artist + year, classes: ["dim-label", "caption"])
            for label in [title, artist] { gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END) }
            Gtk.append(text, title)
            Gtk.append(text, artist)
            let score = Gtk.label(Self.scoreText(candidate.score), classes: ["candidate-score", "caption"], xalign: 1)
            gtk_widget_set_valign(score, GTK_ALIGN_CENTER)
            let arrow = gtk_image_new_from_icon_name("go-next-symbolic")!
            gtk_widget_add_css_class(arrow, "dim-label")
            for child in [picture, text, score, arrow] { Gtk.append(box, child) }
            gtk_list_box_row_set_child(crate_list_box_row(row), box)
            Gtk.setAccessibleLabel(row, L10n.tr("Switch to %@ by %@, %@", album.title, album.artist, Self.scoreText(candidate.score)))
            gtk_list_box_append(crate_list_box(list), row)
            loadThumbnail(of: album, into: picture, generation: current)
        }
        gtk_widget_set_visible(widget, candidates.isEmpty ? 0 : 1)
        // Just after a scan the question matters most: open, so the choices are in view.
        gtk_expander_set_expanded(OpaquePointer(widget), expanded ? 1 : 0)
        onListed?(shown.map { "\($0.album.title) (\(Self.scoreText($0.score)))" }, expanded)
        if !candidates.isEmpty {
            let rows = (0..<Int32(shown.count)).compactMap { gtk_list_box_get_row_at_index(crate_list_box(list), $0) }
            onShown?(rows.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) })
        }
    }

    /// "87 % match", or for the album the scan first found (offered back, unscored) "First answer".
    static func scoreText(_ score: Double?) -> String {
        guard let score else { return L10n.tr("First answer") }
        return L10n.tr("%@ %% match", Int((score * 100).rounded()))
    }

    private func loadThumbnail(of album: Album, into picture: UnsafeMutablePointer<GtkWidget>, generation: Int) {
        guard let loadCover else { return }
        // The picture is kept alive until the load ends, even if the list was redrawn.
        g_object_ref(UnsafeMutableRawPointer(picture))
        Task { [weak self] in
            defer { g_object_unref(UnsafeMutableRawPointer(picture)) }
            guard let url = await loadCover(album), let self, self.generation == generation else { return }
            TextureCache.thumbnails.texture(for: url.path) { [weak self] texture in
                guard let self, self.generation == generation, let texture else { return }
                gtk_picture_set_paintable(crate_picture(picture), crate_paintable(UnsafeMutableRawPointer(texture)))
                gtk_widget_remove_css_class(picture, "artwork-missing")
            }
        }
    }
}
