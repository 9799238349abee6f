import CGtk

/// Small conveniences over the C API that keep the widget files readable.
enum Gtk {
    /// A label whose text is always plain text (never Pango markup): titles such as
    /// `<b>x</b> & <a href=…>` come from the network and must show literally.
    static func label(_ text: String, classes: [String] = [], xalign: Float = 0) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_label_set_text(crate_label(label), text)
        gtk_label_set_xalign(crate_label(label), xalign)
        gtk_label_set_use_markup(crate_label(label), 0)
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }

    /// Makes a label wrap at word (or, for very long words, character) boundaries.
    static func wrap(_ label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_wrap(crate_label(label), 1)
        gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD_CHAR)
    }

    /// Sets a button's text and lets it wrap within `maxChars` (a longer translation must not
    /// widen a 360 px window).
    static func setWrappingLabel(_ button: UnsafeMutablePointer<GtkWidget>, _ text: String, maxChars: Int32 = 18) {
        gtk_button_set_label(crate_button(button), text)
        guard let child = gtk_button_get_child(crate_button(button)) else { return }
        wrap(child)
        gtk_label_set_max_width_chars(crate_label(child), maxChars)
        gtk_label_set_justify(crate_label(child), GTK_JUSTIFY_CENTER)
    }

    static func setText(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_label_set_text(crate_label(label), text)
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32, classes: [String] = []) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(orientation, spacing)!
        for name in classes { gtk_widget_add_css_class(box, name) }
        return box
    }

    static func append(_ box: UnsafeMutablePointer<GtkWidget>, _ child: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(crate_box(box), child)
    }

    /// An icon-only button with a tooltip and an accessible label (screen readers read the label).
    static func iconButton(_ icon: String, label: String, action: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon)!
        Gtk.setTooltip(button, label)
        setAccessibleLabel(button, label)
        if let action { gtk_actionable_set_action_name(crate_actionable(button), action) }
        return button
    }

    /// Sets (or, with nil or "", clears) a widget's tooltip without asking the display where the
    /// pointer is: use this, never `gtk_widget_set_tooltip_text` (see `crate_widget_set_tooltip`).
    static func setTooltip(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String?) {
        crate_widget_set_tooltip(widget, text)
    }

    /// Starts or stops a spinner; it spins only while it is on screen (see `crate_spinner_set`).
    /// Use this, never `gtk_spinner_start`/`gtk_spinner_stop`.
    /// A centred spinner that spins while on screen (a page still loading).
    static func spinnerPage() -> UnsafeMutablePointer<GtkWidget> {
        let spinner = gtk_spinner_new()!
        spin(spinner, true)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        return spinner
    }

    static func spin(_ spinner: UnsafeMutablePointer<GtkWidget>, _ spinning: Bool) {
        crate_spinner_set(spinner, spinning ? 1 : 0)
    }

    static func setAccessibleLabel(_ widget: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        crate_accessible_set_label(widget, text)
    }

    /// Calls `body` with a NULL-terminated C string array (accelerator lists, authors, …).
    static func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
        pointers.append(nil)
        defer { for p in pointers { free(UnsafeMutableRawPointer(mutating: p)) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
