import CGtk
import CrateCore
import Foundation

/// Under the camera's preview: the album tier 0 recognises in it, with its verdict ("Owned ·
/// Rumours — Fleetwood Mac"), and a button that opens it in the crate. Hidden while the preview
/// shows nothing the crate knows.
@MainActor
final class CameraSightingView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    private(set) var albumID: Int64?
    var onOpen: ((Int64) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["card"])
        for edge in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top] { edge(widget, 12) }
        let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_hexpand(text, 1)
        for edge in [gtk_widget_set_margin_start, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { edge(text, 10) }
        title = Gtk.label("", classes: ["heading"])
        detail = Gtk.label("", classes: ["dim-label"])
        Gtk.wrap(detail)
        Gtk.append(text, title)
        Gtk.append(text, detail)
        let open = gtk_button_new_with_mnemonic(L10n.tr("_Open Album"))!
        gtk_widget_set_valign(open, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_end(open, 10)
        Gtk.append(widget, text)
        Gtk.append(widget, open)
        GObjectScope.of(widget).connect(open, "clicked") { [weak self] in
            guard let self, let albumID = self.albumID else { return }
            self.onOpen?(albumID)
        }
        gtk_widget_set_visible(widget, 0)
    }

    /// Shows `sighting`, or hides the card (nil). Text from the library is set as plain text.
    func show(_ sighting: LiveSighting?) {
        albumID = sighting?.album.id
        guard let sighting else { return gtk_widget_set_visible(widget, 0) }
        gtk_label_set_text(crate_label(title), sighting.verdict.title)
        let detailText = sighting.verdict.detail()
        let what = L10n.tr("%@ — %@", sighting.album.title, sighting.album.artist)
        gtk_label_set_text(crate_label(detail), detailText.isEmpty ? what : what + "\n" + detailText)
        gtk_widget_set_visible(widget, 1)
    }
}
