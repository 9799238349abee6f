import CGtk

/// Context menus (secondary click, Menu key, Shift+F10) in the GNOME way: a GtkPopoverMenu built
/// from a GMenu of the window's actions (`win.album-play`, …), so a menu item does exactly what
/// the same command does elsewhere.
@MainActor
enum ContextMenu {
    /// One menu item: its label (with a mnemonic) and the action with its target.
    struct Item {
        enum Target { case id(Int64), text(String) }
        let label: String
        let action: String
        let target: Target
    }

    /// Calls `handler(x, y)` on a secondary click on `widget` (its coordinates).
    static func onSecondaryClick(_ widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor (Double, Double) -> Void) {
        crate_add_secondary_click(widget, { user, x, y in
            guard let user else { return }
            MainActor.assumeIsolated { CallbackBox<@MainActor (Double, Double) -> Void>.borrow(user)(x, y) }
        }, CallbackBox<@MainActor (Double, Double) -> Void>.retain(handler), { user in
            if let user { CallbackBox<@MainActor (Double, Double) -> Void>.release(user) }
        })
    }

    /// Calls `handler` on the Menu key or Shift+F10 while focus is in `widget`.
    static func onMenuKey(_ widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor () -> Void) {
        crate_add_menu_key(widget, { user, _, _ in
            guard let user else { return }
            MainActor.assumeIsolated { CallbackBox<@MainActor () -> Void>.borrow(user)() }
        }, CallbackBox<@MainActor () -> Void>.retain(handler), { user in
            if let user { CallbackBox<@MainActor () -> Void>.release(user) }
        })
    }

    /// Pops a menu up over `widget`, pointing at (x, y) in its coordinates (nil: its middle).
    /// `name` goes into the test event (`context-menu NAME Item|Item|…`).
    static func present(_ sections: [[Item]], on widget: UnsafeMutablePointer<GtkWidget>, at point: (x: Double, y: Double)?, name: String) {
        let menu = g_menu_new()!
        for section in sections where !section.isEmpty {
            let part = g_menu_new()!
            for item in section {
                let entry: OpaquePointer
                switch item.target {
                case .id(let id): entry = crate_menu_item_int64(item.label, item.action, gint64(id))!
                case .text(let text): entry = crate_menu_item_string(item.label, item.action, text)!
                }
                g_menu_append_item(part, entry)
                g_object_unref(UnsafeMutableRawPointer(entry))
            }
            g_menu_append_section(menu, nil, crate_menu_model(UnsafeMutableRawPointer(part)))
            g_object_unref(UnsafeMutableRawPointer(part))
        }
        guard let popover = gtk_popover_menu_new_from_model(crate_menu_model(UnsafeMutableRawPointer(menu))) else { return }
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_widget_set_parent(popover, widget)
        gtk_popover_set_has_arrow(crate_popover(popover), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        let x = point?.x ?? Double(gtk_widget_get_width(widget)) / 2
        let y = point?.y ?? Double(gtk_widget_get_height(widget)) / 2
        var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(crate_popover(popover), &rect)
        // Unparented once closed, after the chosen item's action has run.
        g_object_ref(UnsafeMutableRawPointer(popover))
        let address = UInt(bitPattern: popover)
        GSignal.connect(UnsafeMutableRawPointer(popover), "closed") {
            Task { @MainActor in
                guard let popover = UnsafeMutablePointer<GtkWidget>(bitPattern: address) else { return }
                gtk_widget_unparent(popover)
                g_object_unref(UnsafeMutableRawPointer(popover))
            }
        }
        gtk_popover_popup(crate_popover(popover))
        if WidgetEvents.isObserved { WidgetEvents.say("context-menu \(name) " + sections.flatMap { $0 }.map { $0.label.replacingOccurrences(of: "_", with: "") }.joined(separator: "|")) }
    }
}
