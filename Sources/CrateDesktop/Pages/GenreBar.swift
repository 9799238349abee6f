import CGtk
import CrateCore

/// The genre bar above the wall: one fixed row. With no genre chosen it holds "Wall" and the
/// super-genres; choosing one turns the same row, in place and at the same height, into the
/// genre's name with a dismiss button followed by its subcategories, several of which may be on.
/// The row scrolls sideways when it is wider than the window (it never wraps).
@MainActor
final class GenreBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let genresRow: UnsafeMutablePointer<GtkWidget>
    private let subsRow: UnsafeMutablePointer<GtkWidget>
    private let wallPill: UnsafeMutablePointer<GtkWidget>
    private let nameLabel: UnsafeMutablePointer<GtkWidget>
    let dismissButton: UnsafeMutablePointer<GtkWidget>
    private var genrePills: [(id: String, button: UnsafeMutablePointer<GtkWidget>)] = []
    private var subPills: [(id: String, button: UnsafeMutablePointer<GtkWidget>)] = []
    /// The genre whose subcategory pills are built.
    private var shownGenre: String?
    private var shownGenres: [String] = []
    var onWall: (() -> Void)?
    var onGenre: ((String) -> Void)?
    var onSubcategory: ((String) -> Void)?
    var onDismiss: (() -> Void)?

    init() {
        genresRow = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        wallPill = Self.pill(L10n.tr("Wall"))
        Gtk.setAccessibleLabel(wallPill, L10n.tr("The Crate Wall"))
        Gtk.append(genresRow, wallPill)

        subsRow = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        dismissButton = Gtk.iconButton("window-close-symbolic", label: L10n.tr("Back to the wall"))
        Gtk.setTooltip(dismissButton, L10n.tr("Back to the wall"))
        gtk_widget_add_css_class(dismissButton, "circular")
        gtk_widget_add_css_class(dismissButton, "genre-dismiss")
        nameLabel = Gtk.label("", classes: ["heading", "genre-name"])
        gtk_widget_set_valign(nameLabel, GTK_ALIGN_CENTER)
        Gtk.append(subsRow, dismissButton)
        Gtk.append(subsRow, nameLabel)

        // One stack: both rows get the taller one's height, so switching never moves the page.
        stack = gtk_stack_new()!
        gtk_stack_set_vhomogeneous(crate_stack(stack), 1)
        gtk_stack_set_hhomogeneous(crate_stack(stack), 0)
        // No transition: the row changes in place at once (a fade would take clicks meant for
        // the new pills).
        gtk_stack_set_transition_type(crate_stack(stack), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_named(crate_stack(stack), genresRow, "genres")
        gtk_stack_add_named(crate_stack(stack), subsRow, "subcategories")
        gtk_widget_set_halign(stack, GTK_ALIGN_START)
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { margin(stack, 12) }
        gtk_widget_set_margin_top(stack, 6)
        gtk_widget_set_margin_bottom(stack, 6)

        widget = gtk_scrolled_window_new()!
        gtk_widget_add_css_class(widget, "genre-bar")
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), stack)
        gtk_scrolled_window_set_policy(crate_scrolled_window(widget), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(crate_scrolled_window(widget), 1)
        gtk_widget_set_vexpand(widget, 0)
        Gtk.setAccessibleLabel(widget, L10n.tr("Genres"))

        let scope = GObjectScope.of(widget)
        scope.connect(wallPill, "clicked") { [weak self] in
            guard let self else { return }
            gtk_toggle_button_set_active(crate_toggle_button(self.wallPill), 1)
            self.onWall?()
        }
        scope.connect(dismissButton, "clicked") { [weak self] in self?.onDismiss?() }
    }

    /// Shows the store's state: the genres row, or the chosen genre's row with its toggles.
    func show(_ state: GenreFeedState) {
        let ids = state.genres.map(\.id)
        if ids != shownGenres {
            shownGenres = ids
            for pill in genrePills { gtk_box_remove(crate_box(genresRow), pill.button) }
            genrePills = state.genres.map { genre in
                let button = Self.pill(genre.displayName)
                Gtk.append(genresRow, button)
                GObjectScope.of(widget).connect(button, "clicked") { [weak self] in
                    guard let self else { return }
                    // The pill is not a lasting toggle here: the row changes into the genre's.
                    gtk_toggle_button_set_active(crate_toggle_button(button), 0)
                    self.onGenre?(genre.id)
                }
                return (genre.id, button)
            }
        }
        gtk_toggle_button_set_active(crate_toggle_button(wallPill), state.genre == nil ? 1 : 0)
        guard let genre = state.genre else {
            gtk_stack_set_visible_child_name(crate_stack(stack), "genres")
            shownGenre = nil
            return
        }
        if genre.id != shownGenre {
            shownGenre = genre.id
            Gtk.setText(nameLabel, genre.displayName)
            for pill in subPills { gtk_box_remove(crate_box(subsRow), pill.button) }
            subPills = genre.subcategories.map { sub in
                let button = Self.pill(sub.displayName)
                Gtk.append(subsRow, button)
                GObjectScope.of(widget).connect(button, "clicked") { [weak self] in self?.onSubcategory?(sub.id) }
                return (sub.id, button)
            }
            gtk_adjustment_set_value(gtk_scrolled_window_get_hadjustment(crate_scrolled_window(widget)), 0)
        }
        for pill in subPills {
            gtk_toggle_button_set_active(crate_toggle_button(pill.button), state.selected.contains(pill.id) ? 1 : 0)
        }
        gtk_stack_set_visible_child_name(crate_stack(stack), "subcategories")
    }

    /// Where the pills are, for the UI tests (`genre-pill-<id>`, `genre-sub-<id>`, `genre-dismiss`).
    func reportPoints(in window: UnsafeMutablePointer<GtkWidget>) {
        WidgetEvents.place("genre-wall", of: wallPill, in: window)
        for pill in genrePills { WidgetEvents.place("genre-pill-\(pill.id)", of: pill.button, in: window) }
        for pill in subPills { WidgetEvents.place("genre-sub-\(pill.id)", of: pill.button, in: window) }
        if shownGenre != nil { WidgetEvents.place("genre-dismiss", of: dismissButton, in: window) }
    }

    var height: Int32 { gtk_widget_get_height(widget) }

    private static func pill(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_toggle_button_new_with_label(text)!
        gtk_widget_add_css_class(button, "genre-pill")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        return button
    }
}
