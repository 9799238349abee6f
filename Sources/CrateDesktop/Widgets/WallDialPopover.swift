import CGtk
import CrateCore

/// The Crate Dial: a radio list of the five positions, each with its title and sentence, in a
/// popover under a header button.
@MainActor
final class WallDialPopover {
    /// The menu button that opens the list.
    let widget: UnsafeMutablePointer<GtkWidget>
    private var checks: [(CrateDialPosition, UnsafeMutablePointer<GtkWidget>)] = []
    private var updating = false
    var onChoose: ((CrateDialPosition) -> Void)?

    init() {
        widget = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(crate_menu_button(widget), "preferences-other-symbolic")
        Gtk.setTooltip(widget, L10n.tr("Crate Dial"))
        Gtk.setAccessibleLabel(widget, L10n.tr("Crate Dial"))
    }

    /// (Re)builds the list from the dial's table; `current` is checked.
    func show(entries: [CrateDialTable.Entry], current: CrateDialPosition) {
        if checks.map(\.0) != entries.map(\.position) {
            let list = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 10)
            gtk_widget_set_margin_start(list, 6)
            gtk_widget_set_margin_end(list, 6)
            gtk_widget_set_margin_top(list, 6)
            gtk_widget_set_margin_bottom(list, 6)
            Gtk.append(list, Gtk.label(L10n.tr("Crate Dial"), classes: ["heading"]))
            checks = []
            var group: UnsafeMutablePointer<GtkWidget>?
            for entry in entries {
                let check = gtk_check_button_new()!
                let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
                Gtk.append(text, Gtk.label(entry.displayTitle, classes: ["heading"]))
                let sentence = Gtk.label(entry.displaySentence, classes: ["dim-label", "caption"])
                gtk_label_set_wrap(crate_label(sentence), 1)
                // One width for measuring and drawing: a wrapping label allowed to be narrower
                // than it measured wraps into more lines than the popover made room for.
                // 24 characters keep the popover inside a 360 px window (at 32 it was wider).
                gtk_label_set_width_chars(crate_label(sentence), 24)
                gtk_label_set_max_width_chars(crate_label(sentence), 24)
                Gtk.append(text, sentence)
                gtk_check_button_set_child(checkButton(check), text)
                if let group { gtk_check_button_set_group(checkButton(check), checkButton(group)) } else { group = check }
                let position = entry.position
                GObjectScope.of(widget).connect(check, "toggled") { [weak self] in
                    guard let self, !self.updating, gtk_check_button_get_active(checkButton(check)) != 0 else { return }
                    // A choice closes the list, as a menu does: the new wall is built in view.
                    gtk_menu_button_popdown(crate_menu_button(self.widget))
                    self.onChoose?(position)
                }
                Gtk.append(list, check)
                checks.append((position, check))
            }
            let popover = gtk_popover_new()!
            gtk_popover_set_child(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkPopover.self), list)
            gtk_menu_button_set_popover(crate_menu_button(widget), popover)
            if WidgetEvents.isObserved {
                // Where each position's radio is once the list is open (xdotool turns the dial).
                GObjectScope.of(widget).connect(popover, "show") { [weak self] in
                    guard let self, let root = gtk_widget_get_root(self.widget) else { return }
                    let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
                    for (position, check) in self.checks { WidgetEvents.place("dial-\(position.rawValue)", of: check, x: 10, in: window) }
                    var minimum: Int32 = 0, natural: Int32 = 0
                    gtk_widget_measure(popover, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                    WidgetEvents.say("dial-popover-width \(natural)")
                }
                GObjectScope.of(widget).connect(popover, "closed") { WidgetEvents.say("dial closed") }
            }
        }
        updating = true
        for (position, check) in checks where position == current {
            gtk_check_button_set_active(checkButton(check), 1)
        }
        updating = false
    }
}

/// GtkCheckButton's instance type is public; the shim has no cast for it (kept out of the shared shim).
private func checkButton(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkCheckButton> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkCheckButton.self)
}
