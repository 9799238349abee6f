import CGtk

/// The keyboard shortcuts window (Ctrl+?), generated from the one accelerator table.
@MainActor
enum ShortcutsWindow {
    private static let titles: [String: String] = [
        "win.scan": "Scan a cover photo",
        "win.paste": "Scan an image from the clipboard",
        "win.show-crate": "Show the crate",
        "win.show-history": "Show scan history",
        "win.search": "Search the crate",
        "win.close": "Close the window",
        "app.preferences": "Preferences",
        "app.shortcuts": "Keyboard shortcuts",
        "app.about": "About Crate",
        "app.quit": "Quit",
        "player.toggle-play": "Play / pause",
        "player.next": "Next track",
        "player.previous": "Previous track",
        "player.stop": "Stop",
    ]

    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        var shortcuts = ""
        for (action, keys) in Actions.accelerators + Actions.playerShortcuts {
            guard let title = titles[action] else { continue }
            let accel = keys.joined(separator: " ")
            shortcuts += """
                <child><object class="GtkShortcutsShortcut">
                  <property name="title">\(escape(title))</property>
                  <property name="accelerator">\(escape(accel))</property>
                </object></child>
                """
        }
        let xml = """
            <interface>
              <object class="GtkShortcutsWindow" id="shortcuts">
                <property name="modal">1</property>
                <child><object class="GtkShortcutsSection">
                  <property name="section-name">main</property>
                  <child><object class="GtkShortcutsGroup">
                    <property name="title">Crate</property>
                    \(shortcuts)
                  </object></child>
                </object></child>
              </object>
            </interface>
            """
        let builder = gtk_builder_new_from_string(xml, -1)!
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return }
        let window = crate_widget(UnsafeMutableRawPointer(object))!
        if let parent { gtk_window_set_transient_for(crate_window(window), crate_window(parent)) }
        gtk_window_present(crate_window(window))
        g_object_unref(UnsafeMutableRawPointer(builder))
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
