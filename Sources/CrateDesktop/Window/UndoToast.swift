import CGtk
import CrateCore

/// "Scan deleted — Undo" at the bottom of the window for 5 seconds.
@MainActor
final class UndoToast {
    static let duration: UInt32 = 5

    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    /// Commits the deletion when it fires; removed with the widget if the window closes first.
    private var expiry: GObjectScope.Source?
    private var onUndo: (() -> Void)?
    private var onExpire: (() -> Void)?

    init() {
        widget = gtk_revealer_new()!
        gtk_revealer_set_transition_type(crate_revealer(widget), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        let box = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["toast"])
        label = Gtk.label("")
        let undo = gtk_button_new_with_mnemonic(L10n.tr("_Undo"))!
        GObjectScope.of(widget).connect(undo, "clicked") { [weak self] in self?.undo() }
        Gtk.append(box, label)
        Gtk.append(box, undo)
        gtk_revealer_set_child(crate_revealer(widget), box)
    }

    /// Shows `message`; `onUndo` runs if Undo is pressed in time, `onExpire` otherwise.
    func show(_ message: String, onUndo: @escaping () -> Void, onExpire: @escaping () -> Void) {
        finish(expired: true)  // A new deletion commits the previous one.
        Gtk.setText(label, message)
        self.onUndo = onUndo
        self.onExpire = onExpire
        gtk_revealer_set_reveal_child(crate_revealer(widget), 1)
        expiry = GObjectScope.of(widget).after(seconds: Self.duration) { [weak self] in
            self?.expiry = nil
            self?.finish(expired: true)
        }
    }

    private func undo() {
        let action = onUndo
        finish(expired: false)
        action?()
    }

    private func finish(expired: Bool) {
        GObjectScope.of(widget).remove(expiry)
        expiry = nil
        let expire = onExpire
        onUndo = nil
        onExpire = nil
        gtk_revealer_set_reveal_child(crate_revealer(widget), 0)
        if expired { expire?() }
    }
}
