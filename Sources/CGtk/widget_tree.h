#ifndef CRATE_CGTK_WIDGET_TREE_H
#define CRATE_CGTK_WIDGET_TREE_H

// Finding widgets GTK and libadwaita give no handle to, and naming the ones they leave unnamed
// for assistive technologies. Part of the CGtk module (shim.h includes it).

#include <gtk/gtk.h>
#include <adwaita.h>

/// The row GTK 4.8 puts around a list's child (GtkListBoxRow, GtkFlowBoxChild, a list or grid
/// view's item widget) when the child is its only content: that row takes the focus, and has no
/// name of its own.
static inline GtkWidget *crate_wrapping_row(GtkWidget *widget) {
    GtkWidget *parent = gtk_widget_get_parent(widget);
    if (parent == NULL || gtk_widget_get_first_child(parent) != widget || gtk_widget_get_next_sibling(widget) != NULL) return NULL;
    if (GTK_IS_LIST_BOX_ROW(parent) || GTK_IS_FLOW_BOX_CHILD(parent)) return parent;
    return g_strcmp0(G_OBJECT_TYPE_NAME(parent), "GtkListItemWidget") == 0 ? parent : NULL;
}

static inline void crate_label_wrapping_row(GtkWidget *widget) {
    GtkWidget *row = crate_wrapping_row(widget);
    const char *text = g_object_get_data(G_OBJECT(widget), "crate-accessible-label");
    if (row != NULL && text != NULL) gtk_accessible_update_property(GTK_ACCESSIBLE(row), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static inline void crate_parent_changed(GObject *widget, GParamSpec *pspec, gpointer data) {
    (void)pspec; (void)data;
    crate_label_wrapping_row(GTK_WIDGET(widget));
}

/// gtk_accessible_update_property is variadic: set just the accessible label. The row wrapping
/// the widget, if any (now or once it is put in one), is given the same label: screen readers
/// name what has the focus.
static inline void crate_accessible_set_label(void *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    g_object_set_data_full(G_OBJECT(widget), "crate-accessible-label", g_strdup(text), g_free);
    if (g_object_get_data(G_OBJECT(widget), "crate-accessible-row-hook") == NULL) {
        g_object_set_data(G_OBJECT(widget), "crate-accessible-row-hook", GINT_TO_POINTER(1));
        g_signal_connect(widget, "notify::parent", G_CALLBACK(crate_parent_changed), NULL);
    }
    crate_label_wrapping_row(GTK_WIDGET(widget));
}

/// GtkSearchBar (GTK 4.8) gives its close button no name: the button inside the bar that is not
/// in the bar's own child.
static inline GtkWidget *crate_first_button(GtkWidget *widget, GtkWidget *skip) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (child == skip) continue;
        if (GTK_IS_BUTTON(child)) return child;
        GtkWidget *found = crate_first_button(child, skip);
        if (found != NULL) return found;
    }
    return NULL;
}

static inline void crate_search_bar_label_close_button(void *bar, const char *text) {
    GtkWidget *button = crate_first_button(GTK_WIDGET(bar), gtk_search_bar_get_child(GTK_SEARCH_BAR(bar)));
    if (button != NULL) gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

/// The first visible button below `root` whose label is `label` (a toast's button, which
/// libadwaita gives no handle to).
static inline GtkWidget *crate_button_with_label(GtkWidget *root, const char *label) {
    for (GtkWidget *child = gtk_widget_get_first_child(root); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (!gtk_widget_get_visible(child)) continue;
        if (GTK_IS_BUTTON(child) && g_strcmp0(gtk_button_get_label(GTK_BUTTON(child)), label) == 0) return child;
        GtkWidget *found = crate_button_with_label(child, label);
        if (found != NULL) return found;
    }
    return NULL;
}

/// Names every plain GtkButton below `root`, hidden ones too: an AdwEntryRow's apply button
/// (libadwaita 1.2 gives it no name, and it appears only once the text was edited).
static inline void crate_label_plain_buttons(void *root, const char *text) {
    for (GtkWidget *child = gtk_widget_get_first_child(GTK_WIDGET(root)); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (G_OBJECT_TYPE(child) == GTK_TYPE_BUTTON) gtk_accessible_update_property(GTK_ACCESSIBLE(child), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
        crate_label_plain_buttons(child, text);
    }
}

/// The first visible widget of type `type` below `root` (depth first, hidden subtrees skipped).
static inline GtkWidget *crate_first_descendant(GtkWidget *root, GType type) {
    for (GtkWidget *child = gtk_widget_get_first_child(root); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (!gtk_widget_get_visible(child)) continue;
        if (g_type_is_a(G_OBJECT_TYPE(child), type)) return child;
        GtkWidget *found = crate_first_descendant(child, type);
        if (found != NULL) return found;
    }
    return NULL;
}

/// Names a widget libadwaita 1.2 builds without one (a preferences window's search entry, a
/// password row's show button, an untitled group's list): the first `type_name` below `root`.
static inline void crate_label_first_descendant(void *root, const char *type_name, const char *text) {
    GType type = g_type_from_name(type_name);
    GtkWidget *found = type == 0 ? NULL : crate_first_descendant(GTK_WIDGET(root), type);
    if (found != NULL) gtk_accessible_update_property(GTK_ACCESSIBLE(found), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

#endif
