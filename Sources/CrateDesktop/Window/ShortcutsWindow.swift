import CGtk
import CrateCore

/// The keyboard shortcuts window (Ctrl+?, F1): its groups and titles are data/ui/shortcuts-window.ui;
/// the keys come from the one accelerator table, by each shortcut's id (its action). A key
/// handled outside the tables (Delete in History, Escape in the window) is written in the file.
@MainActor
enum ShortcutsWindow {
    /// The accelerator text of an action in the tables, nil for any other id.
    static func accelerator(for action: String) -> String? {
        let table = Actions.accelerators + Actions.playerShortcuts
        return table.first { $0.action == action }?.keys.joined(separator: " ")
    }

    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        let window = UIFile.load("shortcuts-window") { ui in
            for shortcut in ui.objects(ofClass: "GtkShortcutsShortcut") {
                guard let id = UIFile.id(of: shortcut), let keys = accelerator(for: id) else { continue }
                crate_object_set_string(shortcut, "accelerator", keys)
            }
            return ui.widget("shortcuts-window")
        }
        if let parent { gtk_window_set_transient_for(crate_window(window), crate_window(parent)) }
        gtk_window_present(crate_window(window))
        WidgetEvents.say("shortcuts " + groups(in: window).map { "\($0.title):" + $0.keys.joined(separator: ",") }.joined(separator: " | "))
    }

    /// The groups as shown, in order, each with its title and its rows' keys (the window's
    /// search page holds copies of the rows, outside any group).
    private static func groups(in root: UnsafeMutablePointer<GtkWidget>) -> [(title: String, keys: [String])] {
        var found: [(title: String, keys: [String])] = []
        func walk(_ widget: UnsafeMutablePointer<GtkWidget>) {
            for child in children(of: widget) {
                guard typeName(child) == "GtkShortcutsGroup" else { walk(child); continue }
                let keys = children(of: child).filter { typeName($0) == "GtkShortcutsShortcut" }.map { string(of: $0, "accelerator") }
                found.append((string(of: child, "title"), keys))
            }
        }
        walk(root)
        return found
    }

    private static func children(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var list: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            list.append(current)
            child = gtk_widget_get_next_sibling(current)
        }
        return list
    }

    private static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(widget))))
    }

    private static func string(of object: UnsafeMutableRawPointer, _ property: String) -> String {
        guard let raw = crate_object_dup_string(object, property) else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
    }
}
