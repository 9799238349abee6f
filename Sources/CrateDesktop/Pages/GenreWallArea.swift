import CGtk
import CrateCore

/// The wall page's left side: the genre bar above either the wall or the chosen genre's feed.
@MainActor
final class GenreWallArea {
    let widget: UnsafeMutablePointer<GtkWidget>
    let bar = GenreBar()
    let feed = GenreFeedPage()
    private let stack: UnsafeMutablePointer<GtkWidget>

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["genre-wall-area"])
        stack = gtk_stack_new()!
        gtk_stack_set_transition_type(crate_stack(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_widget_set_vexpand(stack, 1)
        gtk_stack_add_named(crate_stack(stack), feed.widget, "genre")
        Gtk.append(widget, bar.widget)
        Gtk.append(widget, stack)
    }

    /// Puts the wall page under the bar; returns the area to show in its place.
    func wrap(_ wall: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        gtk_stack_add_named(crate_stack(stack), wall, "wall")
        gtk_stack_set_visible_child_name(crate_stack(stack), "wall")
        return widget
    }

    /// The wall (false) or the genre feed (true).
    func showGenre(_ on: Bool) {
        gtk_stack_set_visible_child_name(crate_stack(stack), on ? "genre" : "wall")
    }

    var isShowingGenre: Bool {
        gtk_stack_get_visible_child_name(crate_stack(stack)).map { String(cString: $0) } == "genre"
    }
}
