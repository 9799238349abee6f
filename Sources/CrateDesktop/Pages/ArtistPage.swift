import CGtk
import CrateCore
import Foundation

/// An artist's page: a back button and the artist's name, then their albums and EPs oldest
/// first (undated last), with live albums, compilations and the like in their own section; or,
/// when several artists have the name, the list to choose from (they are never merged).
@MainActor
final class ArtistPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let subtitleLabel: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let noticeLabel: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let candidateList: UnsafeMutablePointer<GtkWidget>
    private let sectionsBox: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let message = EmptyStateView(icon: "avatar-default-symbolic", title: "", detail: "")
    private var candidates: [ArtistCandidate] = []
    private var candidateRows: [UnsafeMutablePointer<GtkWidget>] = []
    /// A section shown: its heading, its flow box and one tile per place, in order.
    private final class SectionView {
        let heading: UnsafeMutablePointer<GtkWidget>
        let flow: UnsafeMutablePointer<GtkWidget>
        var tiles: [ArtistTileView] = []
        init(heading: UnsafeMutablePointer<GtkWidget>, flow: UnsafeMutablePointer<GtkWidget>) {
            self.heading = heading
            self.flow = flow
        }
    }
    /// The sections shown. A new catalogue (the next page of a long one, a corrected entry)
    /// changes only the places that differ: tiles that stayed keep their widgets, their covers,
    /// a click on them and the scroll position.
    private var sectionViews: [CatalogueSection: SectionView] = [:]
    private var sectionTiles: [SectionView] {
        CatalogueSection.allCases.compactMap { sectionViews[$0] }
    }
    /// Whose catalogue is shown (another artist's starts at the top).
    private var shownArtist: MBID?
    private var artistName = ""
    var onBack: (() -> Void)?
    var onChoose: ((ArtistCandidate) -> Void)?
    /// A tile was activated: the release group, its cover's stored path, the artist's name.
    var onOpen: ((ReleaseGroupEntry, String?, String) -> Void)?
    /// Fetches (or finds) a tile's cover; see `ArtistTileView.loadCover`.
    var loadCover: ((ReleaseGroupEntry) async -> String?)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["artist-page", "background"])
        let bar = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(bar, 12) }
        gtk_widget_set_margin_top(bar, 8)
        gtk_widget_set_margin_bottom(bar, 4)
        backButton = Gtk.iconButton("go-previous-symbolic", label: L10n.tr("Back (Esc)"))
        Gtk.setTooltip(backButton, L10n.tr("Back (Esc)"))
        gtk_widget_set_valign(backButton, GTK_ALIGN_CENTER)
        let titles = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_hexpand(titles, 1)
        titleLabel = Gtk.label("", classes: ["title-2"])
        subtitleLabel = Gtk.label("", classes: ["dim-label", "caption"])
        for label in [titleLabel, subtitleLabel] { gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END) }
        Gtk.append(titles, titleLabel)
        Gtk.append(titles, subtitleLabel)
        spinner = gtk_spinner_new()!
        Gtk.append(bar, backButton)
        Gtk.append(bar, titles)
        Gtk.append(bar, spinner)
        noticeLabel = Gtk.label("", classes: ["dim-label", "caption"])
        Gtk.wrap(noticeLabel)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(noticeLabel, 12) }
        gtk_widget_set_visible(noticeLabel, 0)

        candidateList = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(candidateList), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(candidateList, "boxed-list")
        let chooser = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(chooser, 12) }
        let prompt = Gtk.label(L10n.tr("Several artists have this name. Which one do you mean?"), classes: ["heading"])
        Gtk.wrap(prompt)
        Gtk.append(chooser, prompt)
        Gtk.append(chooser, candidateList)
        let chooserClamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(chooserClamp), 600)
        adw_clamp_set_child(crate_clamp(chooserClamp), chooser)
        let chooserScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(chooserScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(chooserScroller), chooserClamp)

        sectionsBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] { margin(sectionsBox, 12) }
        scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(scroller), sectionsBox)

        let loading = gtk_spinner_new()!
        Gtk.spin(loading, true)
        gtk_widget_set_size_request(loading, 32, 32)
        gtk_widget_set_halign(loading, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(loading, GTK_ALIGN_CENTER)

        stack = gtk_stack_new()!
        gtk_widget_set_vexpand(stack, 1)
        gtk_stack_add_named(crate_stack(stack), loading, "loading")
        gtk_stack_add_named(crate_stack(stack), chooserScroller, "choose")
        gtk_stack_add_named(crate_stack(stack), scroller, "catalogue")
        gtk_stack_add_named(crate_stack(stack), message.widget, "message")
        Gtk.append(widget, bar)
        Gtk.append(widget, noticeLabel)
        Gtk.append(widget, stack)

        let scope = GObjectScope.of(widget)
        scope.connect(backButton, "clicked") { [weak self] in self?.onBack?() }
        scope.connect(candidateList, "row-activated") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(crate_list_box_row(row)))
            guard self.candidates.indices.contains(index) else { return }
            self.onChoose?(self.candidates[index])
        }
    }

    func show(_ state: ArtistPageState) {
        artistName = state.title ?? ""
        Gtk.setText(titleLabel, state.title ?? L10n.tr("Artist"))
        let busy = state.phase == .searching || state.phase == .loading || state.isFetching
        if busy { Gtk.spin(spinner, true) } else { Gtk.spin(spinner, false) }
        var subtitle: [String] = []
        if let disambiguation = state.catalogue?.disambiguation, !disambiguation.isEmpty { subtitle.append(disambiguation) }
        if let catalogue = state.catalogue {
            let count = catalogue.releaseGroups.count
            subtitle.append(L10n.plural("%@ release", "%@ releases", count, count))
            if state.isFetching, catalogue.total > count { subtitle.append(L10n.tr("loading %@ more", catalogue.total - count)) }
        }
        Gtk.setText(subtitleLabel, subtitle.joined(separator: " · "))
        gtk_widget_set_visible(subtitleLabel, subtitle.isEmpty ? 0 : 1)
        Gtk.setText(noticeLabel, state.notice ?? "")
        gtk_widget_set_visible(noticeLabel, state.notice == nil ? 0 : 1)

        switch state.phase {
        case .idle, .searching, .loading:
            gtk_stack_set_visible_child_name(crate_stack(stack), "loading")
        case .choosing:
            showCandidates(state.candidates)
            gtk_stack_set_visible_child_name(crate_stack(stack), "choose")
        case .failed(let text):
            message.update(title: L10n.tr("Crate cannot show this artist"), detail: text)
            gtk_stack_set_visible_child_name(crate_stack(stack), "message")
        case .loaded:
            let catalogue = state.catalogue
            showCatalogue(catalogue)
            if catalogue?.releaseGroups.isEmpty ?? true {
                message.update(title: state.isFetching ? L10n.tr("Loading the albums") : L10n.tr("No albums or EPs"),
                               detail: state.isFetching ? L10n.tr("MusicBrainz is sending this artist's releases.") : L10n.tr("MusicBrainz lists no albums or EPs for this artist."))
                gtk_stack_set_visible_child_name(crate_stack(stack), state.isFetching ? "loading" : "message")
            } else {
                gtk_stack_set_visible_child_name(crate_stack(stack), "catalogue")
            }
        }
    }

    /// The first tile and the first candidate, for the UI tests.
    func reportPoints(in window: UnsafeMutablePointer<GtkWidget>) {
        WidgetEvents.place("artist-back", of: backButton, in: window)
        if let first = sectionTiles.first?.tiles.first { WidgetEvents.place("artist-tile", of: first.widget, y: 40, in: window) }
        if let row = candidateRows.first { WidgetEvents.place("artist-candidate", of: row, in: window) }
    }

    /// The sections' order, for the UI tests: "albums:3,eps:1,other:2".
    var sectionSummary: String {
        sectionTiles.enumerated().map { "\($0.offset):\($0.element.tiles.count)" }.joined(separator: ",")
    }

    private func showCandidates(_ wanted: [ArtistCandidate]) {
        guard wanted != candidates else { return }
        candidates = wanted
        for row in candidateRows { gtk_list_box_remove(crate_list_box(candidateList), row) }
        candidateRows = wanted.map { candidate in
            let box = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
            for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { margin(box, 10) }
            let name = Gtk.label(candidate.name, classes: ["heading"])
            let details = Gtk.label(candidate.details.isEmpty ? L10n.tr("No details on MusicBrainz") : candidate.details, classes: ["dim-label", "caption"])
            Gtk.wrap(details)
            Gtk.append(box, name)
            Gtk.append(box, details)
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_child(crate_list_box_row(row), box)
            gtk_list_box_row_set_activatable(crate_list_box_row(row), 1)
            Gtk.setAccessibleLabel(row, candidate.details.isEmpty ? candidate.name : L10n.tr("%@, %@", candidate.name, candidate.details))
            gtk_list_box_append(crate_list_box(candidateList), row)
            return row
        }
    }

    private func showCatalogue(_ catalogue: ArtistCatalogue?) {
        let started = ContinuousClock.now
        let wanted = Dictionary(uniqueKeysWithValues: (catalogue?.sections ?? []).map { ($0.section, $0.entries) })
        var previous: UnsafeMutablePointer<GtkWidget>?
        var total = TilePlan(places: [], removed: [])
        for section in CatalogueSection.allCases {
            let entries = wanted[section] ?? []
            guard !entries.isEmpty else {
                if let view = sectionViews.removeValue(forKey: section) {
                    total.removed += view.tiles.indices.map { $0 }
                    gtk_box_remove(crate_box(sectionsBox), view.heading)
                    gtk_box_remove(crate_box(sectionsBox), view.flow)
                }
                continue
            }
            let view = sectionViews[section] ?? makeSection(section, after: previous)
            previous = view.flow
            Gtk.setText(view.heading, L10n.tr("%@ · %@", section.title, entries.count))
            let plan = TilePlan.between(view.tiles.map(\.entry), entries, key: \.id)
            total.places += plan.places
            total.removed += plan.removed
            guard !plan.isUnchanged else { continue }
            view.tiles = TileFlow.apply(plan, to: view.tiles, in: view.flow, widget: \.widget, make: { index in
                let tile = ArtistTileView(entry: entries[index])
                tile.loadCover = self.loadCover
                return tile
            }, show: { tile, index in tile.show(entries[index]) })
        }
        if catalogue?.artistID != shownArtist {
            shownArtist = catalogue?.artistID
            gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(crate_scrolled_window(scroller)), 0)
        }
        if !total.isUnchanged { TileFlow.reportTiming("artist page", plan: total, started: started, widget: sectionsBox) }
    }

    /// A section's heading and flow box, put after `previous` (first when nil).
    private func makeSection(_ section: CatalogueSection, after previous: UnsafeMutablePointer<GtkWidget>?) -> SectionView {
        let heading = Gtk.label("", classes: ["heading"])
        gtk_widget_set_margin_top(heading, 8)
        let flow = TilePage.makeFlow()
        gtk_box_insert_child_after(crate_box(sectionsBox), heading, previous)
        gtk_box_insert_child_after(crate_box(sectionsBox), flow, heading)
        let view = SectionView(heading: heading, flow: flow)
        sectionViews[section] = view
        GObjectScope.of(flow).connect(flow, "child-activated") { [weak self, weak view] (child: UnsafeMutableRawPointer?) in
            guard let self, let view, let child else { return }
            let position = Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
            guard view.tiles.indices.contains(position) else { return }
            let tile = view.tiles[position]
            self.onOpen?(tile.entry, tile.artworkPath, self.artistName)
        }
        return view
    }
}
