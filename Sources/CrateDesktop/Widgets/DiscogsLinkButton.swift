import CGtk
import CrateCore
import Foundation

/// "View on Discogs" with the match score under it, in the detail pane; shown only when the
/// album has a stored Discogs link. Opens the release page in the browser (`gtk_show_uri`).
@MainActor
final class DiscogsLinkButton {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let scoreLabel: UnsafeMutablePointer<GtkWidget>
    private var page: URL?

    init() {
        widget = gtk_button_new()!
        gtk_widget_add_css_class(widget, "flat")
        gtk_widget_add_css_class(widget, "discogs-link")
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        let content = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        let icon = gtk_image_new_from_icon_name("web-browser-symbolic")!
        let labels = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        // Plain text throughout: the score and the URL came from the network.
        let title = Gtk.label(L10n.tr("View on Discogs"), xalign: 0)
        scoreLabel = Gtk.label("", classes: ["dim-label", "caption"], xalign: 0)
        Gtk.append(labels, title)
        Gtk.append(labels, scoreLabel)
        Gtk.append(content, icon)
        Gtk.append(content, labels)
        gtk_button_set_child(crate_button(widget), content)
        gtk_widget_set_visible(widget, 0)
        GObjectScope.of(widget).connect(widget, "clicked") { [weak self] in self?.open() }
    }

    /// Shows the button for `state`'s Discogs page, or hides it.
    func show(_ state: AlbumDetailState) {
        page = state.discogsPage
        guard let page, let match = state.discogsMatchText else {
            gtk_widget_set_visible(widget, 0)
            return
        }
        Gtk.setText(scoreLabel, match)
        // A tooltip is plain text here (never markup): the URL is the network's.
        Gtk.setTooltip(widget, L10n.tr("%@ (%@)", page.absoluteString, match))
        Gtk.setAccessibleLabel(widget, L10n.tr("View on Discogs, %@", match))
        gtk_widget_set_visible(widget, 1)
        if WidgetEvents.isObserved, let root = gtk_widget_get_root(widget) {
            WidgetEvents.say("discogs-link \(match) \(page.absoluteString)")
            WidgetEvents.place("discogs-button", of: widget, in: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self))
        }
    }

    private func open() {
        guard let page else { return }
        if WidgetEvents.isObserved { WidgetEvents.say("discogs-open \(page.absoluteString)") }
        let window = gtk_widget_get_root(widget).flatMap { crate_window(UnsafeMutableRawPointer($0)) }
        gtk_show_uri(window, page.absoluteString, 0)  // GDK_CURRENT_TIME
    }
}
