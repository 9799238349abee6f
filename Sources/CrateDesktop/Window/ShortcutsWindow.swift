import CGtk
import CrateCore

/// The keyboard shortcuts window (Ctrl+?), generated from the one accelerator table.
@MainActor
enum ShortcutsWindow {
    /// The window's groups, in order: each row is an action from the accelerator tables (its keys
    /// come from there) or a key handled elsewhere (Delete in History, Escape in the window).
    static let groups: [(title: String, rows: [(key: String, title: String)])] = [
        (L10n.tr("General"), [
            ("app.shortcuts", L10n.tr("Help and keyboard shortcuts")),
            ("app.preferences", L10n.tr("Preferences")),
            ("win.undo", L10n.tr("Undo the last removal")),
            ("Escape", L10n.tr("Cancel the scan, close the search, then the album")),
            ("win.close", L10n.tr("Close the window")),
            ("app.quit", L10n.tr("Quit")),
        ]),
        (L10n.tr("Scanning"), [
            ("win.scan", L10n.tr("Scan a cover photo")),
            ("win.paste", L10n.tr("Scan an image from the clipboard")),
            ("win.show-history", L10n.tr("Show scan history")),
            ("Delete", L10n.tr("Remove the selected scan (History)")),
        ]),
        (L10n.tr("Crate"), [
            ("win.search", L10n.tr("Search the crate")),
            ("win.show-cds", L10n.tr("Show the CD Wallet")),
            ("win.show-diagnostics", L10n.tr("Diagnostics: music folders, formats, CDs playlist")),
        ]),
        (L10n.tr("Playback"), [
            ("player.toggle-play", L10n.tr("Play / pause")),
            ("player.next", L10n.tr("Next track")),
            ("player.previous", L10n.tr("Previous track")),
            ("player.stop", L10n.tr("Stop")),
        ]),
    ]

    /// The accelerator text of one row: the action's keys, or the key itself.
    static func accelerator(for key: String) -> String {
        let table = Actions.accelerators + Actions.playerShortcuts
        return table.first { $0.action == key }?.keys.joined(separator: " ") ?? key
    }

    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        var xmlGroups = ""
        for group in groups {
            var rows = ""
            for row in group.rows {
                rows += """
                    <child><object class="GtkShortcutsShortcut">
                      <property name="title">\(escape(row.title))</property>
                      <property name="accelerator">\(escape(accelerator(for: row.key)))</property>
                    </object></child>
                    """
            }
            xmlGroups += """
                <child><object class="GtkShortcutsGroup">
                  <property name="title">\(escape(group.title))</property>
                  \(rows)
                </object></child>
                """
        }
        let xml = """
            <interface>
              <object class="GtkShortcutsWindow" id="shortcuts">
                <property name="modal">1</property>
                <child><object class="GtkShortcutsSection">
                  <property name="section-name">main</property>
                  <property name="max-height">12</property>
                  \(xmlGroups)
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
        WidgetEvents.say("shortcuts " + groups.map { "\($0.title):" + $0.rows.map { accelerator(for: $0.key) }.joined(separator: ",") }.joined(separator: " | "))
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
