#ifndef CRATE_CGTK_SHIM_H
#define CRATE_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>
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

/// Like crate_signal_connect, but when `owner` (a GObject other than `instance`) is disposed the
/// handler is disconnected too, whichever of the two goes first: what g_signal_connect_object does,
/// with a destroy notify for `data`. GLib watches the closure, so nothing here needs `instance`
/// to still be alive later.
static inline gulong crate_signal_connect_owned(void *instance, const char *signal, GCallback handler,
                                                void *data, GClosureNotify destroy, void *owner) {
    GClosure *closure = g_cclosure_new(handler, data, destroy);
    if (owner && owner != instance) g_object_watch_closure(G_OBJECT(owner), closure);
    return g_signal_connect_closure(instance, signal, closure, FALSE);
}

/// g_object_set is variadic: one typed setter per use.
static inline void crate_object_set_bool(void *object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

static inline void crate_object_set_string(void *object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/// A string property's value (the caller frees it with g_free), NULL when unset.
static inline char *crate_object_dup_string(void *object, const char *property) {
    char *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}

/// gtk_about_dialog has a variadic convenience; authors need a NULL-terminated array.
static inline void crate_about_set_authors(GtkAboutDialog *about, const char *author) {
    const char *authors[] = { author, NULL };
    gtk_about_dialog_set_authors(about, authors);
}

#include "widget_tree.h"

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
static inline GtkListBoxRow *crate_list_box_row(void *p) { return (GtkListBoxRow *)p; }
static inline GtkShortcutController *crate_shortcut_controller(void *p) { return (GtkShortcutController *)p; }
static inline GtkPopover *crate_popover(void *p) { return (GtkPopover *)p; }
static inline GMenuModel *crate_menu_model(void *p) { return (GMenuModel *)p; }
static inline GtkEventController *crate_event_controller(void *p) { return (GtkEventController *)p; }
static inline GtkApplicationWindow *crate_application_window(void *p) { return (GtkApplicationWindow *)p; }
static inline GtkShortcutsWindow *crate_shortcuts_window(void *p) { return (GtkShortcutsWindow *)p; }
static inline GtkToggleButton *crate_toggle_button(void *p) { return (GtkToggleButton *)p; }
static inline GtkDropTarget *crate_drop_target(void *p) { return (GtkDropTarget *)p; }
static inline GAction *crate_action(void *p) { return (GAction *)p; }
static inline GtkTextView *crate_text_view(void *p) { return (GtkTextView *)p; }
static inline GtkDropDown *crate_drop_down(void *p) { return (GtkDropDown *)p; }
static inline GtkSwitch *crate_switch(void *p) { return (GtkSwitch *)p; }
static inline GtkGrid *crate_grid(void *p) { return (GtkGrid *)p; }
static inline GtkEntry *crate_entry(void *p) { return (GtkEntry *)p; }
static inline GtkAdjustment *crate_adjustment(void *p) { return (GtkAdjustment *)p; }
static inline GtkRoot *crate_root(void *p) { return (GtkRoot *)p; }
static inline AdwApplicationWindow *crate_adw_application_window(void *p) { return (AdwApplicationWindow *)p; }
static inline AdwHeaderBar *crate_adw_header_bar(void *p) { return (AdwHeaderBar *)p; }
static inline AdwLeaflet *crate_leaflet(void *p) { return (AdwLeaflet *)p; }
static inline AdwViewStack *crate_view_stack(void *p) { return (AdwViewStack *)p; }
static inline AdwViewSwitcherTitle *crate_view_switcher_title(void *p) { return (AdwViewSwitcherTitle *)p; }
static inline AdwViewSwitcherBar *crate_view_switcher_bar(void *p) { return (AdwViewSwitcherBar *)p; }
static inline AdwClamp *crate_clamp(void *p) { return (AdwClamp *)p; }
static inline AdwToastOverlay *crate_toast_overlay(void *p) { return (AdwToastOverlay *)p; }
static inline AdwPreferencesWindow *crate_preferences_window(void *p) { return (AdwPreferencesWindow *)p; }
static inline AdwPreferencesPage *crate_preferences_page(void *p) { return (AdwPreferencesPage *)p; }
static inline AdwPreferencesGroup *crate_preferences_group(void *p) { return (AdwPreferencesGroup *)p; }
static inline AdwPreferencesRow *crate_preferences_row(void *p) { return (AdwPreferencesRow *)p; }
static inline AdwComboRow *crate_combo_row(void *p) { return (AdwComboRow *)p; }
static inline AdwEntryRow *crate_entry_row(void *p) { return (AdwEntryRow *)p; }
static inline AdwActionRow *crate_action_row(void *p) { return (AdwActionRow *)p; }
static inline AdwExpanderRow *crate_expander_row(void *p) { return (AdwExpanderRow *)p; }
static inline AdwStatusPage *crate_status_page(void *p) { return (AdwStatusPage *)p; }
static inline AdwToast *crate_toast(void *p) { return (AdwToast *)p; }
static inline GNetworkMonitor *crate_network_monitor(void *p) { return (GNetworkMonitor *)p; }

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

/// Window-wide keys that must win over whatever has focus (Space on a focused button or grid
/// cell). A capture-phase key controller on `window` calls `handler` for each key press in the
/// window itself (not in its popovers or menus, which have their own surface); `in_text` says
/// whether focus is in something that types (an editable or an editable text view), where Space
/// and Ctrl+arrows must keep their text meaning. `handler` returns TRUE when it used the key.
/// The handler is disconnected when `window` is disposed, so `user` must live until then.
typedef gboolean (*CrateKeyHandler)(void *user, guint keyval, GdkModifierType state, gboolean in_text);
typedef struct { CrateKeyHandler handler; void *user; } CrateKeyCapture;

static gboolean crate_key_capture_pressed(GtkEventControllerKey *controller, guint keyval, guint keycode,
                                          GdkModifierType state, gpointer data) {
    CrateKeyCapture *capture = data;
    GtkWidget *window = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(controller));
    GdkEvent *event = gtk_event_controller_get_current_event(GTK_EVENT_CONTROLLER(controller));
    GtkNative *native = gtk_widget_get_native(window);
    if (!event || !native || gdk_event_get_surface(event) != gtk_native_get_surface(native)) return FALSE;
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(window));
    gboolean in_text = focus && (GTK_IS_EDITABLE(focus)
        || (GTK_IS_TEXT_VIEW(focus) && gtk_text_view_get_editable(GTK_TEXT_VIEW(focus))));
    return capture->handler(capture->user, keyval, state & gtk_accelerator_get_default_mod_mask(), in_text);
}

static inline void crate_install_key_capture(GtkWidget *window, CrateKeyCapture *capture) {
    GtkEventController *controller = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE);
    crate_signal_connect_owned(controller, "key-pressed", G_CALLBACK(crate_key_capture_pressed), capture, NULL, window);
    gtk_widget_add_controller(window, controller);
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

/// Drag-and-drop glue. GtkDropTarget's signals pass doubles and GValues, awkward from Swift, so
/// C unpacks them and calls three plain callbacks: hover state, dropped file paths, dropped image.
typedef void (*CrateDropHover)(void *user, gboolean inside);
typedef void (*CrateDropFiles)(void *user, const char **paths, int count);
typedef void (*CrateDropTexture)(void *user, GdkTexture *texture);
typedef struct {
    CrateDropHover hover;
    CrateDropFiles files;
    CrateDropTexture texture;
    void *user;
} CrateDropHandlers;

static GdkDragAction crate_drop_on_enter(GtkDropTarget *target, double x, double y, gpointer data) {
    CrateDropHandlers *h = data;
    h->hover(h->user, TRUE);
    return GDK_ACTION_COPY;
}

static void crate_drop_on_leave(GtkDropTarget *target, gpointer data) {
    CrateDropHandlers *h = data;
    h->hover(h->user, FALSE);
}

static gboolean crate_drop_on_drop(GtkDropTarget *target, const GValue *value, double x, double y, gpointer data) {
    CrateDropHandlers *h = data;
    h->hover(h->user, FALSE);
    if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) {
        GSList *list = g_value_get_boxed(value);
        int count = (int)g_slist_length(list), n = 0;
        const char **paths = g_new0(const char *, count + 1);
        for (GSList *l = list; l; l = l->next) {
            char *path = g_file_get_path(G_FILE(l->data));
            if (path) paths[n++] = path;
        }
        h->files(h->user, paths, n);
        for (int i = 0; i < n; i++) g_free((char *)paths[i]);
        g_free(paths);
        return TRUE;
    }
    if (G_VALUE_HOLDS(value, GDK_TYPE_TEXTURE)) {
        h->texture(h->user, g_value_get_object(value));
        return TRUE;
    }
    return FALSE;
}

/// Accepts files and images dropped on `widget`. The handlers are disconnected when `widget` is
/// disposed, so `handlers` must live until then (the caller ties it to the widget's lifetime).
static inline void crate_install_drop_target(GtkWidget *widget, CrateDropHandlers *handlers) {
    GtkDropTarget *target = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[2] = { GDK_TYPE_FILE_LIST, GDK_TYPE_TEXTURE };
    gtk_drop_target_set_gtypes(target, types, 2);
    crate_signal_connect_owned(target, "enter", G_CALLBACK(crate_drop_on_enter), handlers, NULL, widget);
    crate_signal_connect_owned(target, "leave", G_CALLBACK(crate_drop_on_leave), handlers, NULL, widget);
    crate_signal_connect_owned(target, "drop", G_CALLBACK(crate_drop_on_drop), handlers, NULL, widget);
    gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(target));
}

/// Copies a texture's pixels as tightly packed 8-bit RGBA (straight alpha). Returns a g_malloc'd
/// buffer the caller frees with g_free; width/height are set.
static inline guchar *crate_texture_rgba(GdkTexture *texture, int *width, int *height) {
    int w = gdk_texture_get_width(texture), h = gdk_texture_get_height(texture);
    *width = w; *height = h;
    if (w <= 0 || h <= 0) return NULL;
    gsize stride = (gsize)w * 4;
    guchar *bgra = g_try_malloc(stride * (gsize)h);
    if (!bgra) return NULL;
    gdk_texture_download(texture, bgra, stride);  /* CAIRO_FORMAT_ARGB32: B,G,R,A premultiplied (LE) */
    for (gsize i = 0; i < stride * (gsize)h; i += 4) {
        guchar b = bgra[i], g = bgra[i + 1], r = bgra[i + 2], a = bgra[i + 3];
        if (a != 0 && a != 255) {
            r = (guchar)MIN(255, r * 255 / a); g = (guchar)MIN(255, g * 255 / a); b = (guchar)MIN(255, b * 255 / a);
        }
        bgra[i] = r; bgra[i + 1] = g; bgra[i + 2] = b; bgra[i + 3] = a;
    }
    return bgra;
}

/// Reads an image from the clipboard; `done` gets the texture (or NULL) and `user`.
typedef void (*CrateTextureReady)(GdkTexture *texture, void *user);
typedef struct { CrateTextureReady done; void *user; } CrateClipboardRequest;

static void crate_clipboard_texture_ready(GObject *source, GAsyncResult *result, gpointer data) {
    CrateClipboardRequest *request = data;
    GdkTexture *texture = gdk_clipboard_read_texture_finish(GDK_CLIPBOARD(source), result, NULL);
    request->done(texture, request->user);
    if (texture) g_object_unref(texture);
    g_free(request);
}

static inline void crate_clipboard_read_texture(GtkWidget *widget, CrateTextureReady done, void *user) {
    CrateClipboardRequest *request = g_new0(CrateClipboardRequest, 1);
    request->done = done;
    request->user = user;
    gdk_clipboard_read_texture_async(gtk_widget_get_clipboard(widget), NULL, crate_clipboard_texture_ready, request);
}

/// A GListModel of `n_items` GtkStringObjects made on demand by `get_item` (the crate grid: a
/// count from SQLite and pages fetched as GTK asks for items, never one object per album up
/// front). Written without G_DEFINE_TYPE because this header is compiled into several objects:
/// the type is registered once, by name.
typedef gpointer (*CrateLazyItemFunc)(guint position, gpointer user_data);
typedef struct {
    GObject parent_instance;
    guint n_items;
    CrateLazyItemFunc get_item;
    gpointer user_data;
    GDestroyNotify destroy;
} CrateLazyModel;
typedef struct { GObjectClass parent_class; } CrateLazyModelClass;

static GType crate_lazy_model_item_type(GListModel *model) { (void)model; return GTK_TYPE_STRING_OBJECT; }
static guint crate_lazy_model_n_items(GListModel *model) { return ((CrateLazyModel *)model)->n_items; }
static gpointer crate_lazy_model_item(GListModel *model, guint position) {
    CrateLazyModel *self = (CrateLazyModel *)model;
    if (position >= self->n_items || !self->get_item) return NULL;
    return self->get_item(position, self->user_data);
}
static void crate_lazy_model_iface_init(gpointer g_iface, gpointer data) {
    (void)data;
    GListModelInterface *iface = (GListModelInterface *)g_iface;
    iface->get_item_type = crate_lazy_model_item_type;
    iface->get_n_items = crate_lazy_model_n_items;
    iface->get_item = crate_lazy_model_item;
}
static void crate_lazy_model_finalize(GObject *object) {
    CrateLazyModel *self = (CrateLazyModel *)object;
    if (self->destroy && self->user_data) self->destroy(self->user_data);
    self->user_data = NULL;
    G_OBJECT_CLASS(g_type_class_peek(G_TYPE_OBJECT))->finalize(object);
}
static void crate_lazy_model_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->finalize = crate_lazy_model_finalize;
}
static inline GType crate_lazy_model_get_type(void) {
    GType type = g_type_from_name("CrateLazyModel");
    if (type) return type;
    GTypeInfo info = { sizeof(CrateLazyModelClass), NULL, NULL, crate_lazy_model_class_init, NULL, NULL,
                       sizeof(CrateLazyModel), 0, NULL, NULL };
    type = g_type_register_static(G_TYPE_OBJECT, "CrateLazyModel", &info, (GTypeFlags)0);
    GInterfaceInfo iface = { crate_lazy_model_iface_init, NULL, NULL };
    g_type_add_interface_static(type, G_TYPE_LIST_MODEL, &iface);
    return type;
}
/// A new, empty model; `destroy(user_data)` runs when the model is finalized.
static inline GListModel *crate_lazy_model_new(CrateLazyItemFunc get_item, gpointer user_data, GDestroyNotify destroy) {
    CrateLazyModel *self = (CrateLazyModel *)g_object_new(crate_lazy_model_get_type(), NULL);
    self->get_item = get_item;
    self->user_data = user_data;
    self->destroy = destroy;
    return (GListModel *)self;
}
/// `removed` items at `position` became `added` ones: updates the count and tells the views.
static inline void crate_lazy_model_splice(GListModel *model, guint position, guint removed, guint added) {
    CrateLazyModel *self = (CrateLazyModel *)model;
    self->n_items = self->n_items - removed + added;
    g_list_model_items_changed(model, position, removed, added);
}

/// Context menus: a secondary click on `widget` (x, y in its coordinates), or the Menu key /
/// Shift+F10 while focus is in it (x = y = -1), calls `handler(user, x, y)`. `destroy(user)` runs
/// when the controller goes (with the widget).
typedef void (*CrateContextHandler)(void *user, double x, double y);
typedef struct { CrateContextHandler handler; void *user; GDestroyNotify destroy; } CrateContextRequest;

static void crate_context_request_free(gpointer data, GClosure *closure) {
    (void)closure;
    CrateContextRequest *request = (CrateContextRequest *)data;
    if (request->destroy) request->destroy(request->user);
    g_free(request);
}
static void crate_context_pressed(GtkGestureClick *gesture, int n_press, double x, double y, gpointer data) {
    (void)n_press;
    CrateContextRequest *request = (CrateContextRequest *)data;
    gtk_gesture_set_state(GTK_GESTURE(gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    request->handler(request->user, x, y);
}
static inline void crate_add_secondary_click(GtkWidget *widget, CrateContextHandler handler, void *user, GDestroyNotify destroy) {
    CrateContextRequest *request = g_new0(CrateContextRequest, 1);
    request->handler = handler; request->user = user; request->destroy = destroy;
    GtkGesture *click = gtk_gesture_click_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click), GDK_BUTTON_SECONDARY);
    g_signal_connect_data(click, "pressed", G_CALLBACK(crate_context_pressed), request, crate_context_request_free, (GConnectFlags)0);
    gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(click));
}
static gboolean crate_context_key(GtkWidget *widget, GVariant *args, gpointer data) {
    (void)widget; (void)args;
    CrateContextRequest *request = (CrateContextRequest *)data;
    request->handler(request->user, -1, -1);
    return TRUE;
}
static void crate_context_key_free(gpointer data) { crate_context_request_free(data, NULL); }
static inline void crate_add_menu_key(GtkWidget *widget, CrateContextHandler handler, void *user, GDestroyNotify destroy) {
    CrateContextRequest *request = g_new0(CrateContextRequest, 1);
    request->handler = handler; request->user = user; request->destroy = destroy;
    GtkEventController *controller = gtk_shortcut_controller_new();
    GtkShortcut *shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Menu|<Shift>F10"),
                                             gtk_callback_action_new(crate_context_key, request, crate_context_key_free));
    gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(controller), shortcut);
    gtk_widget_add_controller(widget, controller);
}
/// A menu item that activates `action` with an int64 or a string target.
static inline GMenuItem *crate_menu_item_int64(const char *label, const char *action, gint64 target) {
    GMenuItem *item = g_menu_item_new(label, NULL);
    g_menu_item_set_action_and_target_value(item, action, g_variant_new_int64(target));
    return item;
}
static inline GMenuItem *crate_menu_item_string(const char *label, const char *action, const char *target) {
    GMenuItem *item = g_menu_item_new(label, NULL);
    g_menu_item_set_action_and_target_value(item, action, g_variant_new_string(target));
    return item;
}
/// A window action taking an int64 ("x") or a string ("s") parameter.
static inline GSimpleAction *crate_int64_action_new(const char *name) { return g_simple_action_new(name, G_VARIANT_TYPE_INT64); }
static inline GSimpleAction *crate_string_action_new(const char *name) { return g_simple_action_new(name, G_VARIANT_TYPE_STRING); }

/// A capture-phase key handler on one widget (it sees keys before the focused child and before
/// the widget's own key bindings): `handler(user, keyval, state)` returns TRUE when it used the key.
typedef gboolean (*CrateWidgetKeyHandler)(void *user, guint keyval, GdkModifierType state);
typedef struct { CrateWidgetKeyHandler handler; void *user; GDestroyNotify destroy; } CrateWidgetKeys;
static gboolean crate_widget_key_pressed(GtkEventControllerKey *controller, guint keyval, guint keycode,
                                         GdkModifierType state, gpointer data) {
    (void)controller; (void)keycode;
    CrateWidgetKeys *keys = (CrateWidgetKeys *)data;
    return keys->handler(keys->user, keyval, state & gtk_accelerator_get_default_mod_mask());
}
static void crate_widget_keys_free(gpointer data, GClosure *closure) {
    (void)closure;
    CrateWidgetKeys *keys = (CrateWidgetKeys *)data;
    if (keys->destroy) keys->destroy(keys->user);
    g_free(keys);
}
static inline void crate_add_key_capture(GtkWidget *widget, CrateWidgetKeyHandler handler, void *user, GDestroyNotify destroy) {
    CrateWidgetKeys *keys = g_new0(CrateWidgetKeys, 1);
    keys->handler = handler; keys->user = user; keys->destroy = destroy;
    GtkEventController *controller = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE);
    g_signal_connect_data(controller, "key-pressed", G_CALLBACK(crate_widget_key_pressed), keys, crate_widget_keys_free, (GConnectFlags)0);
    gtk_widget_add_controller(widget, controller);
}
/// Activates a list view's `list.select-item` (position, no modify, no extend).
static inline void crate_list_select_item(GtkWidget *list, guint position) {
    gtk_widget_activate_action(list, "list.select-item", "(ubb)", position, FALSE, FALSE);
}
static inline void crate_list_scroll_to_item(GtkWidget *list, guint position) {
    gtk_widget_activate_action(list, "list.scroll-to-item", "u", position);
}

/// Tooltips answered on demand. `gtk_widget_set_tooltip_text` on a visible widget asks the
/// display where the pointer is (under X11 a server grab and three round trips) so that a shown
/// tooltip can follow the new text; the grid cells and history rows bound at start-up made ~3 000
/// such grabs before the first covers. Here the text is kept on the widget and handed out from
/// "query-tooltip", and the accessible description is set as GTK would.
static gboolean crate_tooltip_query(GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, gpointer data) {
    (void)x; (void)y; (void)keyboard; (void)data;
    const char *text = g_object_get_data(G_OBJECT(widget), "crate-tooltip");
    if (text == NULL || *text == '\0') return FALSE;
    gtk_tooltip_set_text(tooltip, text);
    return TRUE;
}
static inline void crate_widget_set_tooltip(GtkWidget *widget, const char *text) {
    GObject *object = G_OBJECT(widget);
    gboolean has_text = text != NULL && *text != '\0';
    const char *old = g_object_get_data(object, "crate-tooltip");
    if (old == NULL && !has_text) return;
    if (old != NULL && has_text && g_strcmp0(old, text) == 0) return;
    if (g_object_get_data(object, "crate-tooltip-query") == NULL) {
        g_signal_connect(widget, "query-tooltip", G_CALLBACK(crate_tooltip_query), NULL);
        g_object_set_data(object, "crate-tooltip-query", GINT_TO_POINTER(1));
    }
    g_object_set_data_full(object, "crate-tooltip", has_text ? g_strdup(text) : NULL, g_free);
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, has_text ? text : NULL, -1);
    gtk_widget_set_has_tooltip(widget, has_text);
}

/// Spinners spin only while on screen. GTK validates a spinning spinner's style every frame
/// even on a page nobody sees, so spinners left started on hidden pages (the crate's "loading",
/// the CD Wallet's, the artist page's) made the window paint ~50 frames a second for nothing.
/// `crate_spinner_set` records whether the spinner should spin; it spins while that holds and it
/// is mapped.
static void crate_spinner_apply(GtkWidget *spinner, gpointer data) {
    (void)data;
    gboolean wanted = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(spinner), "crate-spin"));
    gboolean spinning = wanted && gtk_widget_get_mapped(spinner);
    if (gtk_spinner_get_spinning(GTK_SPINNER(spinner)) != spinning) gtk_spinner_set_spinning(GTK_SPINNER(spinner), spinning);
}
static inline void crate_spinner_set(GtkWidget *spinner, gboolean spinning) {
    GObject *object = G_OBJECT(spinner);
    if (g_object_get_data(object, "crate-spin-follows") == NULL) {
        g_signal_connect(spinner, "map", G_CALLBACK(crate_spinner_apply), NULL);
        g_signal_connect(spinner, "unmap", G_CALLBACK(crate_spinner_apply), NULL);
        g_object_set_data(object, "crate-spin-follows", GINT_TO_POINTER(1));
    }
    g_object_set_data(object, "crate-spin", GINT_TO_POINTER(spinning ? 1 : 0));
    crate_spinner_apply(spinner, NULL);
}

#endif





