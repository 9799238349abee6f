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
        widget = adw_header_bar_new()!
        let bar = crate_adw_header_bar(widget)
        backButton = Gtk.iconButton("go-previous-symbolic", label: L10n.tr("Back to the crate (Esc)"))
        gtk_widget_set_visible(backButton, 0)
        adw_header_bar_pack_start(bar, backButton)
        let scan = Gtk.iconButton("document-open-symbolic", label: L10n.tr("Scan a cover photo (Ctrl+O)"), action: "win.scan")
        adw_header_bar_pack_start(bar, scan)
        countLabel = gtk_label_new(nil)!
        gtk_widget_add_css_class(countLabel, "dim-label")
        // It must never hold the header wide: it ellipsizes rather than stopping the window at 360 px.
        gtk_label_set_ellipsize(crate_label(countLabel), PANGO_ELLIPSIZE_END)
        adw_header_bar_pack_start(bar, countLabel)

        switcherTitle = adw_view_switcher_title_new()!
        let title = crate_view_switcher_title(switcherTitle)
        adw_view_switcher_title_set_stack(title, crate_view_stack(stack))
        adw_view_switcher_title_set_title(title, L10n.tr("Crate"))
        // Three pages make the switcher title's own minimum ~70 px, which held the whole window
        // at 365 px. Held in a scroller that scrolls nothing (external policy), it asks for no
        // minimum width; at 360 px it still gets the room for "Crate" and the album count.
        let titleHolder = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(titleHolder), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_width(crate_scrolled_window(titleHolder), 1)
        gtk_scrolled_window_set_propagate_natural_height(crate_scrolled_window(titleHolder), 1)
        gtk_scrolled_window_set_child(crate_scrolled_window(titleHolder), switcherTitle)
        adw_header_bar_set_title_widget(bar, titleHolder)
        switcherBar = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(crate_view_switcher_bar(switcherBar), crate_view_stack(stack))

        let sortItems = AlbumSort.allCases.map { ($0.label, "win.sort::\($0.rawValue)") }
        let reverseItem = [(L10n.tr("_Reverse Order"), "win.sort-reversed")]
        // The main menu also sorts: a narrow header hides the sort button to leave the title
        // room for the album count.
        adw_header_bar_pack_end(bar, Self.menuButton(icon: "open-menu-symbolic", label: L10n.tr("Main menu"), items: [
            ("_Preferences", "app.preferences"),
            (L10n.tr("_Keyboard Shortcuts"), "app.shortcuts"),
            ("_Diagnostics", "win.show-diagnostics"),
            (L10n.tr("_About Crate"), "app.about"),
            ("_Quit", "app.quit"),
        ], submenu: (L10n.tr("_Sort Albums"), sortItems + reverseItem)))
        let sort = Self.menuButton(icon: "view-sort-descending-symbolic", label: L10n.tr("Sort albums"), items: sortItems, footer: reverseItem)
        sortButton = sort
        adw_header_bar_pack_end(bar, sort)
        let search = Gtk.iconButton("system-search-symbolic", label: L10n.tr("Search the crate (Ctrl+F)"), action: "win.search")
        adw_header_bar_pack_end(bar, search)
        gridButtons = [sort, search]

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

    private static func menuButton(icon: String, label: String, items: [(String, String)], footer: [(String, String)] = [],
                                   submenu: (title: String, items: [(String, String)])? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        if let submenu {
            let inner = g_menu_new()!
            for (title, action) in submenu.items { g_menu_append(inner, title, action) }
            g_menu_append_submenu(menu, submenu.title, UnsafeMutableRawPointer(inner).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(inner))
        }
        for (title, action) in items { g_menu_append(menu, title, action) }
        if !footer.isEmpty {
            // A second section: the menu draws a separator above it.
            let section = g_menu_new()!
            for (title, action) in footer { g_menu_append(section, title, action) }
            g_menu_append_section(menu, nil, UnsafeMutableRawPointer(section).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(crate_menu_button(button), icon)
        gtk_menu_button_set_menu_model(crate_menu_button(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        Gtk.setTooltip(button, label)
        Gtk.setAccessibleLabel(button, label)
        g_object_unref(UnsafeMutableRawPointer(menu))
        return button
    }
}
