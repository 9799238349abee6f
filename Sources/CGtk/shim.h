#ifndef CRATE_CGTK_SHIM_H
#define CRATE_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>

/// GObject cast macros are unavailable in Swift; these take the place of GTK_WIDGET(), G_OBJECT(), ...
static inline GtkWidget *crate_widget(void *p) { return (GtkWidget *)p; }
static inline GObject *crate_object(void *p) { return (GObject *)p; }
static inline GtkWindow *crate_window(void *p) { return (GtkWindow *)p; }
static inline GtkBox *crate_box(void *p) { return (GtkBox *)p; }
static inline GtkLabel *crate_label(void *p) { return (GtkLabel *)p; }
static inline GtkButton *crate_button(void *p) { return (GtkButton *)p; }
static inline GApplication *crate_gapplication(void *p) { return (GApplication *)p; }
static inline GtkApplication *crate_application(void *p) { return (GtkApplication *)p; }
static inline GActionMap *crate_action_map(void *p) { return (GActionMap *)p; }
static inline GListModel *crate_list_model(void *p) { return (GListModel *)p; }
static inline GtkListItem *crate_list_item(void *p) { return (GtkListItem *)p; }
static inline GtkStringObject *crate_string_object(void *p) { return (GtkStringObject *)p; }

/// g_signal_connect is a macro; Swift calls this instead.
static inline gulong crate_signal_connect(void *instance, const char *signal, GCallback handler,
                                          void *data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/// g_object_set is variadic: one typed setter per use.
static inline void crate_object_set_bool(void *object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

static inline void crate_object_set_string(void *object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/// gtk_about_dialog has a variadic convenience; authors need a NULL-terminated array.
static inline void crate_about_set_authors(GtkAboutDialog *about, const char *author) {
    const char *authors[] = { author, NULL };
    gtk_about_dialog_set_authors(about, authors);
}

/// gtk_accessible_update_property is variadic: set just the accessible label.
static inline void crate_accessible_set_label(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static inline GtkActionable *crate_actionable(void *p) { return (GtkActionable *)p; }
static inline GtkStack *crate_stack(void *p) { return (GtkStack *)p; }
static inline GtkListView *crate_list_view(void *p) { return (GtkListView *)p; }
static inline GtkStringList *crate_string_list(void *p) { return (GtkStringList *)p; }
static inline GtkSelectionModel *crate_selection_model(void *p) { return (GtkSelectionModel *)p; }
static inline GtkSingleSelection *crate_single_selection(void *p) { return (GtkSingleSelection *)p; }
static inline GtkHeaderBar *crate_header_bar(void *p) { return (GtkHeaderBar *)p; }
static inline GtkMenuButton *crate_menu_button(void *p) { return (GtkMenuButton *)p; }
static inline GtkScrolledWindow *crate_scrolled_window(void *p) { return (GtkScrolledWindow *)p; }
static inline GtkImage *crate_image(void *p) { return (GtkImage *)p; }
static inline GtkAboutDialog *crate_about_dialog(void *p) { return (GtkAboutDialog *)p; }
static inline GtkRevealer *crate_revealer(void *p) { return (GtkRevealer *)p; }
static inline GtkPicture *crate_picture(void *p) { return (GtkPicture *)p; }
static inline GtkOverlay *crate_overlay(void *p) { return (GtkOverlay *)p; }
static inline GSimpleAction *crate_simple_action(void *p) { return (GSimpleAction *)p; }
static inline GtkListItemFactory *crate_list_item_factory(void *p) { return (GtkListItemFactory *)p; }
static inline GtkGridView *crate_grid_view(void *p) { return (GtkGridView *)p; }
static inline GtkPaned *crate_paned(void *p) { return (GtkPaned *)p; }
static inline GtkSearchBar *crate_search_bar(void *p) { return (GtkSearchBar *)p; }
static inline GtkEditable *crate_editable(void *p) { return (GtkEditable *)p; }
static inline GtkStackSwitcher *crate_stack_switcher(void *p) { return (GtkStackSwitcher *)p; }
static inline GdkPaintable *crate_paintable(void *p) { return (GdkPaintable *)p; }
static inline GtkListBox *crate_list_box(void *p) { return (GtkListBox *)p; }
static inline GtkShortcutController *crate_shortcut_controller(void *p) { return (GtkShortcutController *)p; }
static inline GtkEventController *crate_event_controller(void *p) { return (GtkEventController *)p; }
static inline GtkApplicationWindow *crate_application_window(void *p) { return (GtkApplicationWindow *)p; }
static inline GtkShortcutsWindow *crate_shortcuts_window(void *p) { return (GtkShortcutsWindow *)p; }
static inline GtkToggleButton *crate_toggle_button(void *p) { return (GtkToggleButton *)p; }
static inline GtkDropTarget *crate_drop_target(void *p) { return (GtkDropTarget *)p; }
static inline GAction *crate_action(void *p) { return (GAction *)p; }

/// A string-typed stateful action (radio items in a menu); G_VARIANT_TYPE_STRING is a macro.
static inline GSimpleAction *crate_string_state_action_new(const char *name, const char *initial) {
    return g_simple_action_new_stateful(name, G_VARIANT_TYPE_STRING, g_variant_new_string(initial));
}

/// A shortcut local to one widget: `trigger` (e.g. "Delete") activates the named action.
static inline void crate_add_local_shortcut(GtkWidget *widget, const char *trigger, const char *action) {
    GtkEventController *controller = gtk_shortcut_controller_new();
    GtkShortcut *shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_named_action_new(action));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(controller), shortcut);
    gtk_widget_add_controller(widget, controller);
}

/// Renders a widget (e.g. the window, with its header bar) into a PNG file. Returns TRUE on success.
/// Used by `--screenshot` so UI states can be looked at without a window manager.
static inline gboolean crate_widget_save_png(GtkWidget *widget, const char *path) {
    int width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0) return FALSE;
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, snapshot, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    gboolean ok = FALSE;
    if (node) {
        GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(widget));
        graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
        GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &bounds);
        if (texture) {
            ok = gdk_texture_save_to_png(texture, path);
            g_object_unref(texture);
        }
        gsk_render_node_unref(node);
    }
    g_object_unref(paintable);
    return ok;
}

#endif
