#ifndef CRATE_CGSTREAMER_SHIM_H
#define CRATE_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <string.h>

/// GStreamer macros, casts and variadic setters that Swift cannot call.

static inline GstMessageType crate_gst_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline GstObject *crate_gst_message_src(GstMessage *m) { return GST_MESSAGE_SRC(m); }
static inline const char *crate_gst_object_name(GstObject *o) { return o ? GST_OBJECT_NAME(o) : NULL; }
static inline gboolean crate_gst_object_is_sink(GstObject *o) {
    return o && GST_IS_ELEMENT(o) && GST_OBJECT_FLAG_IS_SET(o, GST_ELEMENT_FLAG_SINK);
}
static inline gboolean crate_gst_is_from(GstMessage *m, GstElement *e) { return GST_MESSAGE_SRC(m) == GST_OBJECT(e); }

/// The URI of the file a message comes from: the "uri" property of the nearest element above the
/// message's source that has one (playbin's per-file `uridecodebin`), playbin itself excluded (its
/// "uri" is the next file). NULL when there is none (a sink's message). Free with g_free.
static inline char *crate_gst_message_source_uri(GstMessage *m) {
    GstObject *object = GST_MESSAGE_SRC(m);
    if (!object) return NULL;
    gst_object_ref(object);
    char *uri = NULL;
    while (object) {
        GstObject *parent = gst_object_get_parent(object);
        if (!parent) { gst_object_unref(object); break; }
        GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), "uri");
        if (!uri && spec && G_PARAM_SPEC_VALUE_TYPE(spec) == G_TYPE_STRING && (spec->flags & G_PARAM_READABLE)) {
            g_object_get(object, "uri", &uri, NULL);
        }
        gst_object_unref(object);
        if (uri) { gst_object_unref(parent); break; }
        object = parent;
    }
    return uri;
}

static inline void crate_gst_set_uri(GstElement *playbin, const char *uri) { g_object_set(playbin, "uri", uri, NULL); }
static inline void crate_gst_set_volume(GstElement *playbin, double volume) { g_object_set(playbin, "volume", volume, NULL); }
static inline void crate_gst_set_audio_sink(GstElement *playbin, GstElement *sink) { g_object_set(playbin, "audio-sink", sink, NULL); }
/// Audio only (0x2) with software volume (0x10): no video window for files with cover art streams.
static inline void crate_gst_set_audio_only(GstElement *playbin) { g_object_set(playbin, "flags", 0x2 | 0x10, NULL); }

static inline gulong crate_gst_signal_connect(void *instance, const char *signal, GCallback handler, void *data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

static inline void crate_gst_message_unref(GstMessage *m) { gst_message_unref(m); }
static inline void crate_gst_object_unref(void *o) { gst_object_unref(o); }

/// The "missing-plugin" element message playbin posts before failing: its "detail" caps as text
/// ("audio/mpeg, mpegversion=(int)4, …") or NULL. Free with g_free.
static inline char *crate_gst_missing_plugin_detail(GstMessage *m) {
    const GstStructure *s = gst_message_get_structure(m);
    if (!s || !gst_structure_has_name(s, "missing-plugin")) return NULL;
    const GValue *detail = gst_structure_get_value(s, "detail");
    if (detail && G_VALUE_HOLDS(detail, GST_TYPE_CAPS)) {
        const GstCaps *caps = gst_value_get_caps(detail);
        return caps ? gst_caps_to_string(caps) : NULL;
    }
    if (detail && G_VALUE_HOLDS_STRING(detail)) return g_strdup(g_value_get_string(detail));
    return g_strdup("");
}

/// Error details of an error/warning message: domain name (static), code, message (g_free).
static inline int crate_gst_parse_error(GstMessage *m, const char **domain, char **text) {
    GError *error = NULL;
    gchar *debug = NULL;
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) gst_message_parse_error(m, &error, &debug);
    else gst_message_parse_warning(m, &error, &debug);
    g_free(debug);
    if (!error) { *domain = ""; *text = g_strdup(""); return 0; }
    *domain = g_quark_to_string(error->domain);
    *text = g_strdup(error->message);
    int code = error->code;
    g_error_free(error);
    return code;
}

static inline void crate_gst_parse_state_changed(GstMessage *m, int *oldState, int *newState) {
    GstState o, n, p;
    gst_message_parse_state_changed(m, &o, &n, &p);
    *oldState = (int)o;
    *newState = (int)n;
}

/// A sink description (CRATE_AUDIO_SINK) made into a bin; NULL and an error text (g_free) on failure.
static inline GstElement *crate_gst_sink_from_description(const char *description, char **errorText) {
    GError *error = NULL;
    GstElement *bin = gst_parse_bin_from_description(description, TRUE, &error);
    if (error) {
        *errorText = g_strdup(error->message);
        g_error_free(error);
        if (bin) gst_object_unref(bin);
        return NULL;
    }
    *errorText = NULL;
    return bin;
}

/// Finds an element by name inside a bin (for benchmarks that watch the sink); unref when done.
static inline GstElement *crate_gst_bin_get_by_name(GstElement *bin, const char *name) {
    return GST_IS_BIN(bin) ? gst_bin_get_by_name(GST_BIN(bin), name) : NULL;
}

static inline GstClockTime crate_gst_buffer_pts(GstBuffer *b) { return GST_BUFFER_PTS(b); }
static inline GstClockTime crate_gst_buffer_duration(GstBuffer *b) { return GST_BUFFER_DURATION(b); }

#endif
