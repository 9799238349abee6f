import CGtk

/// The window's own keys, seen before any focused widget (a capture-phase key controller, see
/// `crate_install_key_capture`).
///
/// Why capture: the player keys used to be shortcuts on the page, which the focused widget sees
/// first. A focused grid cell took Space to (de)select its album, and a focused Play button took it
/// to start the album again from track 1. Here Space always reaches the player, unless focus is in
/// a text entry, where Space and Ctrl+arrows keep their meaning for typing.
///
/// The keys come from `Actions.playerShortcuts` (the one table the Shortcuts window lists too);
/// Escape goes to `onEscape`, which answers whether it used the key.
@MainActor
final class WindowKeys {
    private struct Binding {
        let keyval: UInt32
        let modifiers: GdkModifierType
        let action: String
    }

    private let window: UnsafeMutablePointer<GtkWidget>
    private let bindings: [Binding]
    private let capture: UnsafeMutablePointer<CrateKeyCapture>
    /// Escape was pressed (also in a text entry); true when it was used.
    var onEscape: (() -> Bool)?
    /// A digit was typed with no text entry focused ("0"…"9"); true when it was used.
    var onDigit: ((String) -> Bool)?

    private init(window: UnsafeMutablePointer<GtkWidget>) {
        self.window = window
        bindings = Actions.playerShortcuts.flatMap { action, keys in
            keys.compactMap { key -> Binding? in
                var keyval: UInt32 = 0
                var modifiers = GdkModifierType(rawValue: 0)
                guard gtk_accelerator_parse(key, &keyval, &modifiers) != 0 else { return nil }
                return Binding(keyval: keyval, modifiers: modifiers, action: action)
            }
        }
        capture = UnsafeMutablePointer<CrateKeyCapture>.allocate(capacity: 1)
    }

    isolated deinit {
        capture.deinitialize(count: 1)
        capture.deallocate()
    }

    /// Installs the keys on `window` for its lifetime (the window's scope keeps the returned object).
    static func install(on window: UnsafeMutablePointer<GtkWidget>) -> WindowKeys {
        let keys = WindowKeys(window: window)
        let user = GObjectScope.of(window).pointer(keeping: keys)
        keys.capture.initialize(to: CrateKeyCapture(
            handler: { user, keyval, state, inText in
                guard let user else { return 0 }
                let keys = Unmanaged<WindowKeys>.fromOpaque(user).takeUnretainedValue()
                return MainActor.assumeIsolated { keys.pressed(keyval: keyval, modifiers: state, inText: inText != 0) } ? 1 : 0
            },
            user: user))
        crate_install_key_capture(window, keys.capture)
        return keys
    }

    // MARK: - Private

    /// "0"…"9" for the digit keys of the main row and the keypad (Shift is allowed: on some
    /// layouts, AZERTY's, digits are shifted, and scanners type them so).
    private static func digit(_ keyval: UInt32) -> String? {
        let value: UInt32
        switch keyval {
        case UInt32(GDK_KEY_0)...UInt32(GDK_KEY_9): value = keyval - UInt32(GDK_KEY_0)
        case UInt32(GDK_KEY_KP_0)...UInt32(GDK_KEY_KP_9): value = keyval - UInt32(GDK_KEY_KP_0)
        default: return nil
        }
        return String(value)
    }

    private func pressed(keyval: UInt32, modifiers: GdkModifierType, inText: Bool) -> Bool {
        if keyval == UInt32(GDK_KEY_Escape), modifiers.rawValue == 0 {
            return onEscape?() ?? false
        }
        guard !inText else { return false }
        if let digit = Self.digit(keyval), modifiers.rawValue & ~GDK_SHIFT_MASK.rawValue == 0 {
            return onDigit?(digit) ?? false
        }
        // Keypad and shifted forms of the same key count as the key (lower-cased keyval).
        let key = gdk_keyval_to_lower(keyval)
        guard let binding = bindings.first(where: { $0.keyval == key && $0.modifiers == modifiers }) else { return false }
        return gtk_widget_activate_action_variant(window, binding.action, nil) != 0
    }
}
