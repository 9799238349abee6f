import CGtk
import CrateCore
import Foundation

/// "Scan a barcode": a bar under the header with one entry, for typed digits and for USB barcode
/// scanners (keyboards that type the digits and Enter). Ctrl+B opens it; so does a digit typed
/// on the crate page when no entry has focus, which then lands in it, so a scanner needs no click
/// first. Enter looks the barcode up; a problem shows under the entry with the digits kept.
@MainActor
final class BarcodeBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    private let lookUpButton: UnsafeMutablePointer<GtkWidget>
    private let messageLabel: UnsafeMutablePointer<GtkWidget>
    /// Enter or "Look Up", with the entry's text.
    var onLookUp: ((String) -> Void)?
    /// The bar was closed by its close button (the window moves focus back to the page).
    var onClosed: (() -> Void)?
    /// Called with every message shown under the entry (nil: cleared).
    var onMessage: ((String?) -> Void)?

    init() {
        widget = gtk_search_bar_new()!
        gtk_widget_add_css_class(widget, "barcode-bar")
        entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(crate_entry(entry), L10n.tr("Type or scan a barcode"))
        gtk_entry_set_input_purpose(crate_entry(entry), GTK_INPUT_PURPOSE_DIGITS)
        gtk_entry_set_max_length(crate_entry(entry), 32)
        gtk_widget_set_hexpand(entry, 1)
        Gtk.setAccessibleLabel(entry, L10n.tr("Barcode"))
        lookUpButton = gtk_button_new_with_mnemonic(L10n.tr("_Look Up"))!
        gtk_widget_add_css_class(lookUpButton, "suggested-action")
        Gtk.setTooltip(lookUpButton, L10n.tr("Find the record with this barcode: your crate first, then MusicBrainz"))
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked"])
        Gtk.append(row, entry)
        Gtk.append(row, lookUpButton)
        messageLabel = Gtk.label("", classes: ["caption", "barcode-message"], xalign: 0)
        Gtk.wrap(messageLabel)
        gtk_widget_set_visible(messageLabel, 0)
        let column = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
        Gtk.append(column, row)
        Gtk.append(column, messageLabel)
        // Up to 400 px wide, and narrower with the window (it fits at 360 px), as the search.
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 400)
        adw_clamp_set_child(crate_clamp(clamp), column)
        gtk_search_bar_set_child(crate_search_bar(widget), clamp)
        gtk_search_bar_set_show_close_button(crate_search_bar(widget), 1)
        // No slide-in: until the entry is mapped, keys sent to it are lost, and a USB scanner
        // sends the next digit within milliseconds of the first.
        if let revealer = gtk_widget_get_first_child(widget),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(revealer).assumingMemoryBound(to: GTypeInstance.self), gtk_revealer_get_type()) != 0 {
            gtk_revealer_set_transition_duration(OpaquePointer(revealer), 0)
        }
        crate_search_bar_label_close_button(widget, L10n.tr("Close the barcode bar"))
        let scope = GObjectScope.of(widget)
        scope.connect(entry, "activate") { [weak self] in self?.lookUp() }
        scope.connect(lookUpButton, "clicked") { [weak self] in self?.lookUp() }
        scope.connect(widget, "notify::search-mode-enabled") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, !self.isOpen else { return }
            self.onClosed?()
        }
    }

    var isOpen: Bool { gtk_search_bar_get_search_mode(crate_search_bar(widget)) != 0 }

    var text: String {
        gtk_editable_get_text(crate_editable(entry)).map { String(cString: $0) } ?? ""
    }

    /// Opens the bar and focuses the entry. `typed` (a digit a scanner sent before the entry had
    /// focus) is added after what is there, so digits that arrive while the bar slides in keep
    /// their order; opened without one (Ctrl+B), the entry starts empty.
    func open(typing typed: String? = nil) {
        let wasOpen = isOpen
        if let typed {
            gtk_editable_set_text(crate_editable(entry), (wasOpen ? text : "") + typed)
        } else if !wasOpen {
            gtk_editable_set_text(crate_editable(entry), "")
        }
        showMessage(nil)
        gtk_search_bar_set_search_mode(crate_search_bar(widget), 1)
        // Not selecting: the next digit must go after this one, not replace it.
        _ = gtk_entry_grab_focus_without_selecting(crate_entry(entry))
        gtk_editable_set_position(crate_editable(entry), -1)
    }

    func close() {
        gtk_search_bar_set_search_mode(crate_search_bar(widget), 0)
        gtk_editable_set_text(crate_editable(entry), "")
        showMessage(nil)
    }

    /// Says what happened to the last barcode (nil: nothing). A problem keeps the digits,
    /// selected, so the next scan replaces them.
    func showMessage(_ text: String?, isError: Bool = false) {
        Gtk.setText(messageLabel, text ?? "")
        gtk_widget_set_visible(messageLabel, text == nil ? 0 : 1)
        onMessage?(text)
        if isError { gtk_widget_add_css_class(messageLabel, "error") } else { gtk_widget_remove_css_class(messageLabel, "error") }
        if isError, isOpen {
            gtk_widget_grab_focus(entry)
            gtk_editable_select_region(crate_editable(entry), 0, -1)
        }
    }

    /// While a barcode is looked up, the button waits.
    func setBusy(_ busy: Bool) {
        gtk_widget_set_sensitive(lookUpButton, busy ? 0 : 1)
    }

    private func lookUp() {
        let digits = text
        guard !digits.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        onLookUp?(digits)
    }
}
