import CGtk
import CrateCore

/// The window's header bar: Back (while a folded window shows an album), Scan and the album count
/// on the left, the page switcher as its title, and search, sort and the main menu on the right;
/// plus the bar that holds the switcher at the bottom of the window when the header is too
/// narrow for it (the header then shows the page's title).
@MainActor
final class HeaderBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let switcherBar: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    /// The count beside the Scan button while the switcher hides the title's subtitle.
    let countLabel: UnsafeMutablePointer<GtkWidget>
    /// The title's subtitle counts the albums ("2,000 albums", "12 of 2,000").
    let switcherTitle: UnsafeMutablePointer<GtkWidget>
    /// Buttons that act on the grid: hidden while a folded window shows an album, which leaves
    /// the narrow header room for the back button.
    let gridButtons: [UnsafeMutablePointer<GtkWidget>]
    private let sortButton: UnsafeMutablePointer<GtkWidget>
    /// Called when the back button is pressed.
    var onBack: (() -> Void)?
    /// Called when the switcher moves between the title and the bottom bar.
    var onLayoutChange: (() -> Void)?
    /// Called when the grid buttons become sensitive or not.
    var onGridButtonsSensitive: ((Bool) -> Void)?
    /// Whether search and sort were last made sensitive (nil before the first update).
    private var gridButtonsSensitive: Bool?

    init(stack: UnsafeMutablePointer<GtkWidget>, scope: GObjectScope) {
        // The layout is data/ui/header-bar.ui; here: the stack, the sort orders and the state.
        let parts = UIFile.load("header-bar") { ui in
            let sortItems = AlbumSort.allCases.map { ($0.label, "win.sort::\($0.rawValue)") }
            for (index, (title, action)) in sortItems.enumerated() {
                g_menu_insert(ui.menu("sort-submenu"), Int32(index), title, action)
                g_menu_append(ui.menu("sort-items"), title, action)
            }
            return (widget: ui.take("header-bar"), switcherBar: ui.take("switcher-bar"), back: ui.widget("back"),
                    count: ui.widget("count"), title: ui.widget("switcher-title"), sort: ui.widget("sort"), search: ui.widget("search"))
        }
        widget = parts.widget
        switcherBar = parts.switcherBar
        backButton = parts.back
        countLabel = parts.count
        switcherTitle = parts.title
        sortButton = parts.sort
        gridButtons = [parts.sort, parts.search]
        let title = crate_view_switcher_title(switcherTitle)
        adw_view_switcher_title_set_stack(title, crate_view_stack(stack))
        adw_view_switcher_bar_set_stack(crate_view_switcher_bar(switcherBar), crate_view_stack(stack))

        scope.connect(backButton, "clicked") { [weak self] in self?.onBack?() }
        let switcherBar = switcherBar
        scope.connect(switcherTitle, "notify::title-visible") { [weak self] (_: UnsafeMutableRawPointer?) in
            adw_view_switcher_bar_set_reveal(crate_view_switcher_bar(switcherBar), adw_view_switcher_title_get_title_visible(title))
            self?.onLayoutChange?()
        }
    }

    /// The switcher has moved to the bottom bar (the header shows the page's title).
    var isNarrow: Bool { adw_view_switcher_title_get_title_visible(crate_view_switcher_title(switcherTitle)) != 0 }

    /// `albumOnly`: a folded page shows only an album (back instead of the grid's buttons);
    /// `gridActions`: search and sort have a crate to act on; `count`: the crate's count, or nil
    /// on pages it does not belong to.
    func update(albumOnly: Bool, gridActions: Bool, count: String?) {
        gtk_widget_set_visible(backButton, albumOnly ? 1 : 0)
        for button in gridButtons { gtk_widget_set_visible(button, albumOnly ? 0 : 1) }
        if isNarrow { gtk_widget_set_visible(sortButton, 0) }
        if gridButtonsSensitive != gridActions {
            gridButtonsSensitive = gridActions
            for button in gridButtons { gtk_widget_set_sensitive(button, gridActions ? 1 : 0) }
            onGridButtonsSensitive?(gridActions)
        }
        adw_view_switcher_title_set_subtitle(crate_view_switcher_title(switcherTitle), count ?? "")
        gtk_widget_set_visible(countLabel, !isNarrow && count != nil ? 1 : 0)
    }

    func setCount(_ text: String) {
        gtk_label_set_text(crate_label(countLabel), text)
    }
}
