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
            let current = gtk_stack_get_visible_child_name(crate_stack(self.mainStack)).map { String(cString: $0) }
            self.showPage(current == "history" ? "crate" : "history")
        }
        Actions.add(to: widget, "show-crate") { [weak self] in self?.showPage("crate") }
        Actions.add(to: widget, "search") { [weak self] in
            guard let self else { return }
            self.showPage("crate")
            gtk_search_bar_set_search_mode(crate_search_bar(self.searchBar), 1)
            gtk_widget_grab_focus(self.searchEntry)
        }
        Actions.add(to: widget, "delete-scan") { [weak self] in self?.deleteSelectedScan() }
        Actions.addChoice(to: widget, "sort", initial: AlbumSort.recentlyScanned.rawValue) { [weak self] value in
            guard let sort = AlbumSort(rawValue: value), let library = self?.library else { return }
            Task { await library.setSort(sort) }
        }
    }

    func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let header = gtk_header_bar_new()!
        let scan = Gtk.iconButton("document-open-symbolic", label: "Scan a cover photo (Ctrl+O)", action: "win.scan")
        gtk_header_bar_pack_start(crate_header_bar(header), scan)

        let switcher = gtk_stack_switcher_new()!
        gtk_stack_switcher_set_stack(crate_stack_switcher(switcher), crate_stack(mainStack))
        gtk_header_bar_set_title_widget(crate_header_bar(header), switcher)

        gtk_header_bar_pack_end(crate_header_bar(header), Self.menuButton(icon: "open-menu-symbolic", label: "Main menu", items: [
            ("_Preferences", "app.preferences"),
            ("_Keyboard Shortcuts", "app.shortcuts"),
            ("_About Crate", "app.about"),
            ("_Quit", "app.quit"),
        ]))
        gtk_header_bar_pack_end(crate_header_bar(header), Self.menuButton(icon: "view-sort-descending-symbolic", label: "Sort albums", items:
            AlbumSort.allCases.map { ($0.label, "win.sort::\($0.rawValue)") }))
        let search = Gtk.iconButton("system-search-symbolic", label: "Search the crate (Ctrl+F)", action: "win.search")
        gtk_header_bar_pack_end(crate_header_bar(header), search)
        return header
    }

    private static func menuButton(icon: String, label: String, items: [(String, String)]) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        for (title, action) in items { g_menu_append(menu, title, action) }
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(crate_menu_button(button), icon)
        gtk_menu_button_set_menu_model(crate_menu_button(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_widget_set_tooltip_text(button, label)
        Gtk.setAccessibleLabel(button, label)
        g_object_unref(UnsafeMutableRawPointer(menu))
        return button
    }
}
