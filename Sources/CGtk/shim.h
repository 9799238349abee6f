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

#endif
