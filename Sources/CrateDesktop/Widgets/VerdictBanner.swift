import CGtk
import CrateCore

/// The shop question answered at a glance, above a scan's album: "Owned" (with the copies),
/// "Wanted", "Seen before" (when) or "New to you". Large, coloured by kind, read out by screen
/// readers as one line.
@MainActor
final class VerdictBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private var kindClass: String?
    /// The verdict shown ("owned", "wanted", "seen", "new"), or nil (test events).
    private(set) var shownKind: Verdict.Kind?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2, classes: ["card", "verdict-banner"])
        title = Gtk.label("", classes: ["title-1", "verdict-title"], xalign: 0.5)
        detail = Gtk.label("", classes: ["verdict-detail"], xalign: 0.5)
        Gtk.wrap(detail)
        gtk_label_set_justify(crate_label(detail), GTK_JUSTIFY_CENTER)
        Gtk.append(widget, title)
        Gtk.append(widget, detail)
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ verdict: Verdict?) {
        shownKind = verdict?.kind
        if let kindClass { gtk_widget_remove_css_class(widget, kindClass) }
        guard let verdict else {
            kindClass = nil
            gtk_widget_set_visible(widget, 0)
            return
        }
        kindClass = "verdict-\(verdict.kind.rawValue)"
        gtk_widget_add_css_class(widget, kindClass!)
        Gtk.setText(title, verdict.title)
        let line = verdict.detail()
        Gtk.setText(detail, line)
        Gtk.setAccessibleLabel(widget, L10n.tr("%@. %@", verdict.title, line))
        gtk_widget_set_visible(widget, 1)
    }
}
