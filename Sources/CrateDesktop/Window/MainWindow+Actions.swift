import CGtk
import CrateCore

extension MainWindow {
    func installActions() {
        Actions.add(to: widget, "close") { [weak self] in
            guard let self else { return }
            gtk_window_close(crate_window(self.widget))
        }
        Actions.add(to: widget, "show-history") { [weak self] in
            guard let self else { return }
            self.showPage(self.visiblePage == "history" ? "crate" : "history")
        }
        Actions.add(to: widget, "show-crate") { [weak self] in self?.showPage("crate") }
        Actions.add(to: widget, "search") { [weak self] in
            guard let self else { return }
            self.showPage("crate")
            gtk_search_bar_set_search_mode(crate_search_bar(self.searchBar), 1)
            gtk_widget_grab_focus(self.searchEntry)
        }
        Actions.add(to: widget, "delete-scan") { [weak self] in self?.deleteSelectedScan() }
        Actions.add(to: widget, "undo") { [weak self] in self?.undoLast() }
        // Context menus (see MainWindow+ContextMenus).
        Actions.addID(to: widget, "album-play") { [weak self] id in self?.play(albumID: id, track: nil) }
        Actions.addID(to: widget, "album-open") { [weak self] id in self?.openAlbum(id) }
        Actions.addID(to: widget, "album-not-this") { [weak self] id in self?.reconsiderAlbum(id) }
        Actions.addID(to: widget, "album-history") { [weak self] id in self?.showAlbumInHistory(id) }
        Actions.addID(to: widget, "album-artist") { [weak self] id in self?.showArtist(ofAlbum: id) }
        Actions.addID(to: widget, "album-remove") { [weak self] id in self?.removeAlbum(id) }
        Actions.addText(to: widget, "open-uri") { [weak self] uri in self?.openURI(uri) }
        Actions.addID(to: widget, "scan-delete") { [weak self] id in self?.deleteScan(id) }
        Actions.addID(to: widget, "track-play") { [weak self] index in self?.detailPane?.playTrack(at: Int(index)) }
        Actions.addText(to: widget, "copy-text") { [weak self] text in self?.copyText(text) }
        Actions.addChoice(to: widget, "sort", initial: AlbumSort.recentlyScanned.rawValue) { [weak self] value in
            guard let sort = AlbumSort(rawValue: value), let library = self?.library else { return }
            Task { await library.setSort(sort) }
        }
        Actions.addToggle(to: widget, "sort-reversed", initial: false) { [weak self] reversed in
            guard let library = self?.library else { return }
            Task { await library.setReversed(reversed) }
        }
    }

    /// The header bar, and the bar that holds the Crate | History switcher at the bottom of the
    /// window when the header is too narrow for it (the header then shows the page's title).
    func makeHeaderBar() -> (header: UnsafeMutablePointer<GtkWidget>, switcherBar: UnsafeMutablePointer<GtkWidget>) {
        let header = adw_header_bar_new()!
        let bar = crate_adw_header_bar(header)
        backButton = Gtk.iconButton("go-previous-symbolic", label: L10n.tr("Back to the crate (Esc)"))
        gtk_widget_set_visible(backButton, 0)
        adw_header_bar_pack_start(bar, backButton)
        let scan = Gtk.iconButton("document-open-symbolic", label: L10n.tr("Scan a cover photo (Ctrl+O)"), action: "win.scan")
        adw_header_bar_pack_start(bar, scan)
        // When the header is wide enough for the switcher (no subtitle then), the count sits here.
        let count = gtk_label_new(nil)!
        gtk_widget_add_css_class(count, "dim-label")
        // It must never hold the header wide: it ellipsizes rather than stopping the window at 360 px.
        gtk_label_set_ellipsize(crate_label(count), PANGO_ELLIPSIZE_END)
        adw_header_bar_pack_start(bar, count)
        countLabel = count

        let title = adw_view_switcher_title_new()!
        adw_view_switcher_title_set_stack(crate_view_switcher_title(title), crate_view_stack(mainStack))
        adw_view_switcher_title_set_title(crate_view_switcher_title(title), L10n.tr("Crate"))
        // Three pages make the switcher title's own minimum ~70 px, which held the whole window
        // at 365 px. Held in a scroller that scrolls nothing (external policy), it asks for no
        // minimum width; at 360 px it still gets the room for "Crate" and the album count.
        let titleHolder = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(titleHolder), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_width(crate_scrolled_window(titleHolder), 1)
        gtk_scrolled_window_set_propagate_natural_height(crate_scrolled_window(titleHolder), 1)
        gtk_scrolled_window_set_child(crate_scrolled_window(titleHolder), title)
        adw_header_bar_set_title_widget(bar, titleHolder)
        switcherTitle = title
        let switcherBar = adw_view_switcher_bar_new()!
        adw_view_switcher_bar_set_stack(crate_view_switcher_bar(switcherBar), crate_view_stack(mainStack))

        adw_header_bar_pack_end(bar, Self.menuButton(icon: "open-menu-symbolic", label: L10n.tr("Main menu"), items: [
            ("_Preferences", "app.preferences"),
            (L10n.tr("_Keyboard Shortcuts"), "app.shortcuts"),
            ("_Diagnostics", "win.show-diagnostics"),
            (L10n.tr("_About Crate"), "app.about"),
            ("_Quit", "app.quit"),
        ]))
        let sort = Self.menuButton(icon: "view-sort-descending-symbolic", label: L10n.tr("Sort albums"), items:
            AlbumSort.allCases.map { ($0.label, "win.sort::\($0.rawValue)") }, footer: [(L10n.tr("_Reverse Order"), "win.sort-reversed")])
        adw_header_bar_pack_end(bar, sort)
        let search = Gtk.iconButton("system-search-symbolic", label: L10n.tr("Search the crate (Ctrl+F)"), action: "win.search")
        adw_header_bar_pack_end(bar, search)
        gridButtons = [sort, search]

        let scope = GObjectScope.of(widget)
        scope.connect(backButton, "clicked") { [weak self] in
            guard let self else { return }
            if self.artistBack() { return }
            if self.visiblePage == "wall" { self.closeWallDetail() } else { self.closeDetail() }
        }
        scope.connect(title, "notify::title-visible") { [weak self] (_: UnsafeMutableRawPointer?) in
            let narrow = adw_view_switcher_title_get_title_visible(crate_view_switcher_title(title))
            adw_view_switcher_bar_set_reveal(crate_view_switcher_bar(switcherBar), narrow)
            self?.updateHeader()
        }
        scope.connect(mainStack, "notify::visible-child-name") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.updateHeader()
        }
        return (header, switcherBar)
    }

    private static func menuButton(icon: String, label: String, items: [(String, String)], footer: [(String, String)] = []) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
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
