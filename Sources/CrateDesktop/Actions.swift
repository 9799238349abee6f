import CGtk

/// Named actions (`group.verb-noun`) and the one accelerator table.
enum Actions {
    /// Every keyboard shortcut in the app. Later issues add rows here, nowhere else.
    static let accelerators: [(action: String, keys: [String])] = [
        ("app.quit", ["<Control>q"]),
        ("app.about", ["F1"]),
        ("win.show-history", ["<Control>h"]),
        ("win.close", ["<Control>w"]),
    ]

    /// Adds a parameterless action to an application or window.
    static func add(to map: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        GSignal.connect(action, "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    static func installAccelerators(on app: UnsafeMutablePointer<GtkApplication>) {
        for (action, keys) in accelerators {
            Gtk.withCStringArray(keys) { gtk_application_set_accels_for_action(app, action, $0) }
        }
    }
}
