import CGtk

/// Named actions (`group.verb-noun`) and the one accelerator table.
enum Actions {
    /// Every keyboard shortcut in the app. Later issues add rows here, nowhere else.
    static let accelerators: [(action: String, keys: [String])] = [
        ("win.scan", ["<Control>o"]),
        ("win.paste", ["<Control>v"]),
        ("win.scan-barcode", ["<Control>b"]),
        ("win.camera", ["<Control><Shift>c"]),
        ("win.show-history", ["<Control>h"]),
        ("win.show-cds", ["<Control>d"]),
        ("win.show-diagnostics", ["<Control><Shift>d"]),
        ("win.search", ["<Control>f"]),
        ("win.own-album", ["<Control><Shift>o"]),
        ("win.want-album", ["<Control><Shift>w"]),
        ("win.undo", ["<Control>z"]),
        ("win.close", ["<Control>w"]),
        ("app.preferences", ["<Control>comma"]),
        // F1 is Help (GNOME): Crate's help is its shortcuts window. About is in the main menu.
        ("app.shortcuts", ["<Control>question", "F1"]),
        ("app.quit", ["<Control>q"]),
    ]

    /// Playback keys. The window handles them before the focused widget (see WindowKeys), except
    /// in a text entry, where Space and Ctrl+arrows still type.
    static let playerShortcuts: [(action: String, keys: [String])] = [
        ("player.toggle-play", ["space"]),
        ("player.next", ["<Control>Right"]),
        ("player.previous", ["<Control>Left"]),
        ("player.stop", ["<Control>period"]),
    ]

    /// Adds a parameterless action to an application or window; the handler goes with the map.
    @MainActor
    static func add(to map: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor () -> Void) {
        let action = g_simple_action_new(name, nil)!
        GObjectScope.of(map).connect(action, "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Adds an action taking an int64 (an album, scan or track), e.g. `win.album-play` in a
    /// context menu item whose target is the album id.
    @MainActor
    static func addID(to map: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor (Int64) -> Void) {
        let action = crate_int64_action_new(name)!
        GObjectScope.of(map).connect(action, "activate") { (value: UnsafeMutableRawPointer?) in
            guard let value else { return }
            handler(Int64(g_variant_get_int64(OpaquePointer(value))))
        }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Adds an action taking a string (`win.copy-text`).
    @MainActor
    static func addText(to map: UnsafeMutableRawPointer, _ name: String, _ handler: @escaping @MainActor (String) -> Void) {
        let action = crate_string_action_new(name)!
        GObjectScope.of(map).connect(action, "activate") { (value: UnsafeMutableRawPointer?) in
            guard let value, let text = g_variant_get_string(OpaquePointer(value), nil) else { return }
            handler(String(cString: text))
        }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Adds a string-valued radio action (`win.sort::artist` in menus).
    @MainActor
    static func addChoice(to map: UnsafeMutableRawPointer, _ name: String, initial: String, _ handler: @escaping @MainActor (String) -> Void) {
        let action = crate_string_state_action_new(name, initial)!
        GObjectScope.of(map).connect(action, "change-state") { (value: UnsafeMutableRawPointer?) in
            guard let value else { return }
            let variant = OpaquePointer(value)
            g_simple_action_set_state(action, variant)
            handler(String(cString: g_variant_get_string(variant, nil)))
        }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Adds a boolean action (a check item in menus); activating it flips the state.
    @MainActor
    static func addToggle(to map: UnsafeMutableRawPointer, _ name: String, initial: Bool, _ handler: @escaping @MainActor (Bool) -> Void) {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial ? 1 : 0))!
        GObjectScope.of(map).connect(action, "activate") { (_: UnsafeMutableRawPointer?) in
            guard let state = g_action_get_state(crate_action(UnsafeMutableRawPointer(action))) else { return }
            let next = g_variant_get_boolean(state) == 0
            g_variant_unref(state)
            g_simple_action_set_state(action, g_variant_new_boolean(next ? 1 : 0))
            handler(next)
        }
        g_action_map_add_action(crate_action_map(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    static func installAccelerators(on app: UnsafeMutablePointer<GtkApplication>) {
        for (action, keys) in accelerators {
            Gtk.withCStringArray(keys) { gtk_application_set_accels_for_action(app, action, $0) }
        }
    }
}
