import CGtk
import CrateCore

/// The crate page: the album grid (or its empty, no-results and loading pages) beside the detail
/// pane, in an `AdwLeaflet`.
///
/// Why a leaflet: side by side, the pane used to squeeze the grid into one clipped column, and the
/// window could not get narrower than both together. The leaflet folds into one column when the
/// two no longer fit (below about 690 px: the grid and the pane each need 340 px), so the
/// window works at 360 px wide: the grid, then the album full width with a back button.
@MainActor
final class CrateBrowser {
    /// The grid page's minimum width: two columns of covers.
    static let gridMinimumWidth: Int32 = 340

    let widget: UnsafeMutablePointer<GtkWidget>
    private let gridPage: UnsafeMutablePointer<GtkWidget>
    private let separator: UnsafeMutablePointer<GtkWidget>
    private let detailPage: UnsafeMutablePointer<GtkWidget>
    private let closeButton: UnsafeMutablePointer<GtkWidget>
    /// Called when the user closes the detail pane (its close button; back is the window's).
    var onClose: (() -> Void)?
    /// Called when the leaflet folds or unfolds, or moves between grid and detail.
    var onLayoutChange: (() -> Void)?

    /// `grid` is the crate's stack of grid/empty/loading pages. The detail pane comes later
    /// (`setDetail`), once the library has opened.
    init(grid: UnsafeMutablePointer<GtkWidget>) {
        widget = adw_leaflet_new()!
        let leaflet = crate_leaflet(widget)
        adw_leaflet_set_can_navigate_back(leaflet, 1)
        adw_leaflet_set_transition_type(leaflet, ADW_LEAFLET_TRANSITION_TYPE_SLIDE)

        gridPage = grid
        gtk_widget_set_size_request(gridPage, Self.gridMinimumWidth, -1)
        gtk_widget_set_hexpand(gridPage, 1)
        adw_leaflet_append(leaflet, gridPage)

        separator = gtk_separator_new(GTK_ORIENTATION_VERTICAL)!
        adw_leaflet_page_set_navigatable(adw_leaflet_append(leaflet, separator), 0)

        // The pane goes in an overlay with a close button over its top corner while it is beside
        // the grid (folded, the header bar's back button does this).
        detailPage = gtk_overlay_new()!
        closeButton = Gtk.iconButton("window-close-symbolic", label: L10n.tr("Close the album (Esc)"))
        gtk_widget_add_css_class(closeButton, "circular")
        gtk_widget_add_css_class(closeButton, "detail-close")
        gtk_widget_set_halign(closeButton, GTK_ALIGN_END)
        gtk_widget_set_valign(closeButton, GTK_ALIGN_START)
        gtk_overlay_add_overlay(crate_overlay(detailPage), closeButton)
        setDetailVisible(false)
        // The grid takes the extra width, never the pane (see AlbumDetailPane).
        gtk_widget_set_hexpand(detailPage, 0)
        adw_leaflet_append(leaflet, detailPage)

        let scope = GObjectScope.of(widget)
        scope.connect(closeButton, "clicked") { [weak self] in self?.onClose?() }
        scope.connect(widget, "notify::folded") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            gtk_widget_set_visible(self.closeButton, self.isFolded ? 0 : 1)
            self.onLayoutChange?()
        }
        scope.connect(widget, "notify::visible-child") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.onLayoutChange?()
        }
    }

    /// Opens the pane whenever `detail` shows an album (by crate id, or release group for an album
    /// not in the crate) and closes it when it shows none.
    func follow(_ detail: AlbumDetailStore) -> ObservationToken {
        var shown: String?
        return detail.state.subscribe(initial: true) { [weak self] state in
            let key = state.album.map { "\($0.id.map(String.init) ?? "")|\($0.musicBrainzReleaseGroupID ?? "")" }
            guard key != shown else { return }
            shown = key
            if key != nil { self?.showDetail() } else { self?.showGrid() }
        }
    }

    /// Puts the album pane beside the grid (hidden until `showDetail`).
    func setDetail(_ pane: UnsafeMutablePointer<GtkWidget>) {
        gtk_overlay_set_child(crate_overlay(detailPage), pane)
    }

    /// True when only one of grid and detail fits.
    var isFolded: Bool { adw_leaflet_get_folded(crate_leaflet(widget)) != 0 }

    /// True when the detail pane is on screen (beside the grid, or alone when folded).
    var isShowingDetail: Bool {
        gtk_widget_get_visible(detailPage) != 0
            && (!isFolded || adw_leaflet_get_visible_child(crate_leaflet(widget)) == detailPage)
    }

    /// Shows an album's pane: beside the grid, or in place of it when folded.
    func showDetail() {
        setDetailVisible(true)
        adw_leaflet_set_visible_child(crate_leaflet(widget), detailPage)
        onLayoutChange?()
    }

    /// Hides the pane and goes back to the grid.
    func showGrid() {
        adw_leaflet_set_visible_child(crate_leaflet(widget), gridPage)
        setDetailVisible(false)
        onLayoutChange?()
    }

    private func setDetailVisible(_ visible: Bool) {
        gtk_widget_set_visible(detailPage, visible ? 1 : 0)
        gtk_widget_set_visible(separator, visible ? 1 : 0)
    }
}
