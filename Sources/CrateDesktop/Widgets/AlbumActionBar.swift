import CGtk
import CrateCore

/// The detail pane's row under the title: a heart and a ✕ (mutually exclusive: pressing the
/// pressed one clears it) and, for a wall album not in the crate, "Add to Crate".
@MainActor
final class AlbumActionBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let heart: UnsafeMutablePointer<GtkWidget>
    let cross: UnsafeMutablePointer<GtkWidget>
    let addButton: UnsafeMutablePointer<GtkWidget>
    private var rating: AlbumRating?
    var onRate: ((AlbumRating?) -> Void)?
    var onAdd: (() -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, classes: ["detail-actions"])
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        heart = Gtk.iconButton("emblem-favorite-symbolic", label: L10n.tr("Favourite"))
        cross = Gtk.iconButton("window-close-symbolic", label: L10n.tr("Not for me"))
        Gtk.setTooltip(heart, L10n.tr("Favourite"))
        Gtk.setTooltip(cross, L10n.tr("Not for me (never on the wall)"))
        for button in [heart, cross] { gtk_widget_add_css_class(button, "circular") }
        addButton = gtk_button_new_with_label(L10n.tr("Add to Crate"))!
        gtk_widget_add_css_class(addButton, "suggested-action")
        gtk_widget_add_css_class(addButton, "pill")
        Gtk.setTooltip(addButton, L10n.tr("Put this album in your crate, with its cover art, without scanning a photo"))
        Gtk.append(widget, heart)
        Gtk.append(widget, cross)
        Gtk.append(widget, addButton)
        let scope = GObjectScope.of(widget)
        scope.connect(heart, "clicked") { [weak self] in
            guard let self else { return }
            self.onRate?(self.rating == .favourite ? nil : .favourite)
        }
        scope.connect(cross, "clicked") { [weak self] in
            guard let self else { return }
            self.onRate?(self.rating == .dislike ? nil : .dislike)
        }
        scope.connect(addButton, "clicked") { [weak self] in self?.onAdd?() }
    }

    /// `canRate`: the album has a MusicBrainz release group. `canAdd`: a wall album not in the
    /// crate (`adding` while it is being added).
    func show(rating: AlbumRating?, canRate: Bool, canAdd: Bool, adding: Bool) {
        self.rating = rating
        for (button, on) in [(heart, rating == .favourite), (cross, rating == .dislike)] {
            if on { gtk_widget_add_css_class(button, "suggested-action") } else { gtk_widget_remove_css_class(button, "suggested-action") }
            gtk_widget_set_visible(button, canRate ? 1 : 0)
        }
        Gtk.setAccessibleLabel(heart, rating == .favourite ? L10n.tr("Remove from favourites") : L10n.tr("Favourite"))
        Gtk.setAccessibleLabel(cross, rating == .dislike ? L10n.tr("Show it on the wall again") : L10n.tr("Not for me"))
        gtk_widget_set_visible(addButton, canAdd ? 1 : 0)
        gtk_widget_set_sensitive(addButton, adding ? 0 : 1)
        gtk_button_set_label(crate_button(addButton), adding ? L10n.tr("Adding…") : L10n.tr("Add to Crate"))
        gtk_widget_set_visible(widget, canRate || canAdd ? 1 : 0)
    }
}
