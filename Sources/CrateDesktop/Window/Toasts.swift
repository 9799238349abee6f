import CGtk

/// Non-blocking messages at the bottom of the window (libadwaita's `AdwToastOverlay`): scan
/// outcomes ("3 scanned, 1 not identified — Show"), a quiet "nothing to paste".
@MainActor
final class Toasts {
    /// The overlay; its child is the window's content.
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The last toast's title (tests read it through the test events).
    private(set) var lastTitle: String?
    var onShow: ((String) -> Void)?

    init(content: UnsafeMutablePointer<GtkWidget>) {
        widget = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(crate_toast_overlay(widget), content)
    }

    /// Shows `title` (plain text: photo names come from the user's disk) for `seconds`, with an
    /// optional button that runs `action`.
    /// `onDismiss` runs when the toast goes (timed out, closed, replaced, or after its button).
    /// Returns the toast (owned by the overlay; `ToastHandle` keeps it alive to dismiss it later).
    @discardableResult
    func show(_ title: String, button: String? = nil, seconds: UInt32 = 5, action: (() -> Void)? = nil, onDismiss: (() -> Void)? = nil) -> ToastHandle {
        let toast = adw_toast_new("")!
        // AdwToast titles are markup; escape so a file name like "R&B.jpg" shows as it is.
        let escaped = g_markup_escape_text(title, -1)!
        adw_toast_set_title(crate_toast(UnsafeMutableRawPointer(toast)), escaped)
        g_free(escaped)
        adw_toast_set_timeout(crate_toast(UnsafeMutableRawPointer(toast)), seconds)
        if let button, let action {
            adw_toast_set_button_label(crate_toast(UnsafeMutableRawPointer(toast)), button)
            GObjectScope.of(widget).connect(UnsafeMutableRawPointer(toast), "button-clicked") { action() }
        }
        if let onDismiss {
            GObjectScope.of(widget).connect(UnsafeMutableRawPointer(toast), "dismissed") { onDismiss() }
        }
        let handle = ToastHandle(toast)
        adw_toast_overlay_add_toast(crate_toast_overlay(widget), toast)
        lastTitle = title
        onShow?(title)
        return handle
    }
}

/// A reference on one toast, so it can be dismissed (Ctrl+Z undid what it offered) after the
/// overlay let go of it.
@MainActor
final class ToastHandle {
    private let toast: OpaquePointer

    init(_ toast: OpaquePointer) {
        self.toast = toast
        g_object_ref(UnsafeMutableRawPointer(toast))
    }

    func dismiss() {
        adw_toast_dismiss(crate_toast(UnsafeMutableRawPointer(toast)))
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(toast))
    }
}
