// libCrateGStreamer.so: every GStreamer call of the player behind the plain C table of
// crate_plugins.h (macros, casts and variadic setters included), so that neither the CLI nor the
// window links GStreamer: it is opened the first time something plays.
#include "crate_plugins.h"
#include "crate_mp4_edit.h"
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <math.h>
#include <string.h>

_Static_assert(CRATE_GST_STATE_NULL == GST_STATE_NULL && CRATE_GST_STATE_READY == GST_STATE_READY &&
               CRATE_GST_STATE_PAUSED == GST_STATE_PAUSED && CRATE_GST_STATE_PLAYING == GST_STATE_PLAYING,
               "GstState values");
_Static_assert(CRATE_GST_CORE_ERROR_MISSING_PLUGIN == GST_CORE_ERROR_MISSING_PLUGIN, "GstCoreError");
_Static_assert(CRATE_GST_STREAM_ERROR_CODEC_NOT_FOUND == GST_STREAM_ERROR_CODEC_NOT_FOUND, "GstStreamError");
_Static_assert(CRATE_GST_RESOURCE_ERROR_NOT_FOUND == GST_RESOURCE_ERROR_NOT_FOUND &&
               CRATE_GST_RESOURCE_ERROR_OPEN_READ == GST_RESOURCE_ERROR_OPEN_READ, "GstResourceError");

static void crate_init(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        gst_init(NULL, NULL);
        g_once_init_leave(&once, 1);
    }
}

static int crate_has_element(const char *name) {
    GstElementFactory *factory = gst_element_factory_find(name);
    if (!factory) return 0;
    gst_object_unref(factory);
    return 1;
}

static void *crate_factory_make(const char *factory, const char *name) { return gst_element_factory_make(factory, name); }
static void *crate_get_bus(void *element) { return gst_element_get_bus(GST_ELEMENT(element)); }
static void *crate_bus_timed_pop(void *bus, uint64_t timeout) { return gst_bus_timed_pop(GST_BUS(bus), (GstClockTime)timeout); }

static int crate_message_type(void *message) {
    switch (GST_MESSAGE_TYPE((GstMessage *)message)) {
    case GST_MESSAGE_STREAM_START: return CRATE_GST_MESSAGE_STREAM_START;
    case GST_MESSAGE_EOS: return CRATE_GST_MESSAGE_EOS;
    case GST_MESSAGE_ASYNC_DONE: return CRATE_GST_MESSAGE_ASYNC_DONE;
    case GST_MESSAGE_DURATION_CHANGED: return CRATE_GST_MESSAGE_DURATION_CHANGED;
    case GST_MESSAGE_ERROR: return CRATE_GST_MESSAGE_ERROR;
    case GST_MESSAGE_ELEMENT: return CRATE_GST_MESSAGE_ELEMENT;
    case GST_MESSAGE_TAG: return CRATE_GST_MESSAGE_TAG;
    default: return CRATE_GST_MESSAGE_OTHER;
    }
}

static void crate_message_unref(void *message) { gst_message_unref((GstMessage *)message); }

static int crate_message_from_sink(void *message) {
    GstObject *o = GST_MESSAGE_SRC((GstMessage *)message);
    return o && GST_IS_ELEMENT(o) && GST_OBJECT_FLAG_IS_SET(o, GST_ELEMENT_FLAG_SINK);
}

static int crate_parse_error(void *message, const char **domain, char **text) {
    GstMessage *m = message;
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

static char *crate_missing_plugin_detail(void *message) {
    const GstStructure *s = gst_message_get_structure((GstMessage *)message);
    if (!s || !gst_structure_has_name(s, "missing-plugin")) return NULL;
    const GValue *detail = gst_structure_get_value(s, "detail");
    if (detail && G_VALUE_HOLDS(detail, GST_TYPE_CAPS)) {
        const GstCaps *caps = gst_value_get_caps(detail);
        return caps ? gst_caps_to_string(caps) : NULL;
    }
    if (detail && G_VALUE_HOLDS_STRING(detail)) return g_strdup(g_value_get_string(detail));
    return g_strdup("");
}

static void crate_free_string(char *text) { g_free(text); }
static void crate_object_unref(void *object) { if (object) gst_object_unref(object); }
static void crate_set_uri(void *playbin, const char *uri) { g_object_set(playbin, "uri", uri, NULL); }
static void crate_set_volume(void *playbin, double volume) { g_object_set(playbin, "volume", volume, NULL); }
static void crate_set_audio_sink(void *playbin, void *sink) { g_object_set(playbin, "audio-sink", sink, NULL); }
/// Audio only (0x2) with software volume (0x10).
static void crate_set_audio_only(void *playbin) { g_object_set(playbin, "flags", 0x2 | 0x10, NULL); }

static unsigned long crate_signal_connect(void *instance, const char *signal, void (*handler)(void), void *data) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, NULL, (GConnectFlags)0);
}

static void *crate_sink_from_description(const char *description, char **error_text) {
    GError *error = NULL;
    GstElement *bin = gst_parse_bin_from_description(description, TRUE, &error);
    if (error) {
        *error_text = g_strdup(error->message);
        g_error_free(error);
        if (bin) gst_object_unref(bin);
        return NULL;
    }
    *error_text = NULL;
    return bin;
}

static void *crate_bin_get_by_name(void *bin, const char *name) {
    return GST_IS_BIN(bin) ? gst_bin_get_by_name(GST_BIN(bin), name) : NULL;
}

static int crate_set_state(void *element, int state) { return (int)gst_element_set_state(GST_ELEMENT(element), (GstState)state); }

static int crate_seek_ns(void *element, int64_t position) {
    return gst_element_seek_simple(GST_ELEMENT(element), GST_FORMAT_TIME,
                                   (GstSeekFlags)(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), position);
}

static int crate_query_position(void *element, int64_t *position) {
    gint64 value = 0;
    gboolean known = gst_element_query_position(GST_ELEMENT(element), GST_FORMAT_TIME, &value);
    *position = value;
    return known;
}

static int crate_query_duration(void *element, int64_t *duration) {
    gint64 value = 0;
    gboolean known = gst_element_query_duration(GST_ELEMENT(element), GST_FORMAT_TIME, &value);
    *duration = value;
    return known;
}

static uint64_t crate_buffer_pts(void *buffer) { return GST_BUFFER_PTS((GstBuffer *)buffer); }
static uint64_t crate_buffer_duration(void *buffer) { return GST_BUFFER_DURATION((GstBuffer *)buffer); }

static void *crate_discoverer_new(uint64_t timeout) {
    GError *error = NULL;
    GstDiscoverer *discoverer = gst_discoverer_new((GstClockTime)timeout, &error);
    if (error) g_error_free(error);
    return discoverer;
}

static char *crate_discover_album(void *discoverer, const char *uri) {
    GstDiscovererInfo *info = gst_discoverer_discover_uri(GST_DISCOVERER(discoverer), uri, NULL);
    if (!info) return NULL;
    gchar *album = NULL;
    const GstTagList *tags = gst_discoverer_info_get_tags(info);
    if (tags) gst_tag_list_get_string(tags, "album", &album);
    g_object_unref(info);
    return album;
}

typedef struct {
    void (*handler)(void *message, void *data);
    void *data;
} crate_bus_handler;

static GstBusSyncReply crate_bus_sync(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    crate_bus_handler *h = data;
    if (h && h->handler && message) h->handler(message, h->data);
    return GST_BUS_DROP;
}

static void crate_bus_set_message_handler(void *bus, void (*handler)(void *message, void *data), void *data) {
    if (!handler) {
        gst_bus_set_sync_handler(GST_BUS(bus), NULL, NULL, NULL);
        return;
    }
    crate_bus_handler *h = g_new0(crate_bus_handler, 1);
    h->handler = handler;
    h->data = data;
    gst_bus_set_sync_handler(GST_BUS(bus), crate_bus_sync, h, g_free);
}

static char *crate_message_source_uri(void *message) {
    GstObject *object = GST_MESSAGE_SRC((GstMessage *)message);
    if (!object) return NULL;
    gst_object_ref(object);
    char *uri = NULL;
    while (object) {
        GstObject *parent = gst_object_get_parent(object);
        if (!parent) { gst_object_unref(object); break; } // the top (playbin): its "uri" is the next file
        GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), "uri");
        if (spec && G_PARAM_SPEC_VALUE_TYPE(spec) == G_TYPE_STRING && (spec->flags & G_PARAM_READABLE)) {
            g_object_get(object, "uri", &uri, NULL);
        }
        gst_object_unref(object);
        if (uri) { gst_object_unref(parent); break; }
        object = parent;
    }
    return uri;
}

static void *crate_pipeline_from_description(const char *description, char **error_text) {
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(description, &error);
    if (error) {
        if (error_text) *error_text = g_strdup(error->message);
        g_error_free(error);
        if (pipeline) gst_object_unref(pipeline);
        return NULL;
    }
    return pipeline;
}

/// "try-pull-sample" is appsink's action signal: no link to libgstapp is needed.
static uint8_t *crate_appsink_pull_rgb(void *pipeline, const char *sink_name, uint64_t timeout, int32_t *width, int32_t *height,
                                       int32_t *stride) {
    if (!GST_IS_BIN(pipeline)) return NULL;
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), sink_name);
    if (!sink) return NULL;
    GstSample *sample = NULL;
    g_signal_emit_by_name(sink, "try-pull-sample", (guint64)timeout, &sample);
    gst_object_unref(sink);
    if (!sample) return NULL;
    uint8_t *copy = NULL;
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    int w = 0, h = 0;
    if (caps && buffer && gst_caps_get_size(caps) > 0) {
        GstStructure *structure = gst_caps_get_structure(caps, 0);
        gst_structure_get_int(structure, "width", &w);
        gst_structure_get_int(structure, "height", &h);
    }
    GstMapInfo map;
    if (w > 0 && h > 0 && w <= 8192 && h <= 8192 && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        // GStreamer pads RGB rows to 4 bytes.
        gsize row = ((gsize)w * 3 + 3) & ~(gsize)3;
        if (map.size >= row * (gsize)h) {
            copy = g_malloc(row * (gsize)h);
            memcpy(copy, map.data, row * (gsize)h);
            *width = w;
            *height = h;
            *stride = (int32_t)row;
        }
        gst_buffer_unmap(buffer, &map);
    }
    gst_sample_unref(sample);
    return copy;
}

static void crate_set_audio_filter(void *playbin, void *filter) { g_object_set(playbin, "audio-filter", filter, NULL); }

typedef struct {
    double (*stored_gain_db)(void *data);
    void *data;
} crate_gain_follower;

/// dB to the volume element's factor (it allows 0…10, +20 dB).
static void crate_apply_gain(GstPad *pad, double gain_db) {
    GstObject *element = gst_pad_get_parent(pad);
    if (!element) return;
    double factor = pow(10.0, gain_db / 20.0);
    g_object_set(element, "volume", factor > 10.0 ? 10.0 : factor, NULL);
    gst_object_unref(element);
}

/// rgvolume is not used: it forgets a file's gain tags only on EOS, which gapless playback never
/// sends between files, so a tagged album's gain would stay on the untagged album after it.
static GstPadProbeReturn crate_gain_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    crate_gain_follower *follower = user;
    if (!event) return GST_PAD_PROBE_OK;
    if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
        crate_apply_gain(pad, follower->stored_gain_db(follower->data));
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_TAG) {
        GstTagList *tags = NULL;
        gst_event_parse_tag(event, &tags);
        gdouble gain = 0, reference = 89.0;
        if (tags && gst_tag_list_get_double(tags, GST_TAG_ALBUM_GAIN, &gain)) {
            if (gst_tag_list_get_double(tags, GST_TAG_REFERENCE_LEVEL, &reference)) gain += 89.0 - reference;
            if (gain > -60.0 && gain < 60.0) crate_apply_gain(pad, gain);
        }
    }
    return GST_PAD_PROBE_OK;
}

static void crate_follow_album_gain(void *volume, double (*stored_gain_db)(void *data), void *data) {
    GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(volume), "sink");
    if (!pad) return;
    crate_gain_follower *follower = g_new0(crate_gain_follower, 1);
    follower->stored_gain_db = stored_gain_db;
    follower->data = data;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, crate_gain_probe, follower, g_free);
    gst_object_unref(pad);
}

static int crate_message_tag_double(void *message, const char *tag, double *value) {
    GstMessage *m = message;
    if (GST_MESSAGE_TYPE(m) != GST_MESSAGE_TAG) return 0;
    GstTagList *tags = NULL;
    gst_message_parse_tag(m, &tags);
    if (!tags) return 0;
    gdouble found = 0;
    gboolean has = gst_tag_list_get_double(tags, tag, &found);
    gst_tag_list_unref(tags);
    if (has) *value = found;
    return has;
}

/// The first buffer into mpegaudioparse: if its first frame is a Xing/Info frame whose LAME tag
/// is signed by ffmpeg ("Lavc"/"Lavf", same layout as LAME's), the signature becomes "LAME" in
/// this buffer only, so the parser trims the delay and padding it records. Then the probe goes.
static GstPadProbeReturn crate_lavc_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user) {
    (void)pad;
    (void)user;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return GST_PAD_PROBE_REMOVE;
    gssize at = -1;
    // The Xing/Info marker sits 13–36 bytes into the first frame (after the side information).
    for (gsize i = 0; map.size >= 4 && i + 4 <= map.size && i < 64; i++) {
        if (memcmp(map.data + i, "Xing", 4) == 0 || memcmp(map.data + i, "Info", 4) == 0) {
            if (i + 8 > map.size) break;
            guint32 flags = GST_READ_UINT32_BE(map.data + i + 4);
            gsize lame = i + 8 + ((flags & 1) ? 4 : 0) + ((flags & 2) ? 4 : 0) + ((flags & 4) ? 100 : 0) + ((flags & 8) ? 4 : 0);
            if (lame + 36 <= map.size && (memcmp(map.data + lame, "Lavc", 4) == 0 || memcmp(map.data + lame, "Lavf", 4) == 0)) at = (gssize)lame;
            break;
        }
    }
    gst_buffer_unmap(buffer, &map);
    if (at >= 0) {
        buffer = gst_buffer_make_writable(buffer);
        gst_buffer_fill(buffer, (gsize)at, "LAME", 4);
        GST_PAD_PROBE_INFO_DATA(info) = buffer;
    }
    return GST_PAD_PROBE_REMOVE;
}

static void crate_element_setup(GstElement *playbin, GstElement *element, gpointer user) {
    (void)playbin;
    (void)user;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory || strcmp(GST_OBJECT_NAME(factory), "mpegaudioparse") != 0) return;
    GstPad *pad = gst_element_get_static_pad(element, "sink");
    if (!pad) return;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, crate_lavc_probe, NULL, NULL);
    gst_object_unref(pad);
}

static void crate_read_lavc_gapless(void *playbin) {
    g_signal_connect(playbin, "element-setup", G_CALLBACK(crate_element_setup), NULL);
}

const crate_gstreamer_table *crate_gstreamer_plugin(void) {
    static const crate_gstreamer_table table = {
        .abi_version = CRATE_PLUGIN_ABI_VERSION,
        .size = sizeof(crate_gstreamer_table),
        .initialize = crate_init,
        .has_element = crate_has_element,
        .element_factory_make = crate_factory_make,
        .element_get_bus = crate_get_bus,
        .bus_timed_pop = crate_bus_timed_pop,
        .message_type = crate_message_type,
        .message_unref = crate_message_unref,
        .message_from_sink = crate_message_from_sink,
        .parse_error = crate_parse_error,
        .missing_plugin_detail = crate_missing_plugin_detail,
        .free_string = crate_free_string,
        .object_unref = crate_object_unref,
        .set_uri = crate_set_uri,
        .set_volume = crate_set_volume,
        .set_audio_sink = crate_set_audio_sink,
        .set_audio_only = crate_set_audio_only,
        .signal_connect = crate_signal_connect,
        .sink_from_description = crate_sink_from_description,
        .bin_get_by_name = crate_bin_get_by_name,
        .element_set_state = crate_set_state,
        .element_seek_ns = crate_seek_ns,
        .query_position_ns = crate_query_position,
        .query_duration_ns = crate_query_duration,
        .buffer_pts = crate_buffer_pts,
        .buffer_duration = crate_buffer_duration,
        .discoverer_new = crate_discoverer_new,
        .discover_album = crate_discover_album,
        .bus_set_message_handler = crate_bus_set_message_handler,
        .message_source_uri = crate_message_source_uri,
        .pipeline_from_description = crate_pipeline_from_description,
        .appsink_pull_rgb = crate_appsink_pull_rgb,
        .set_audio_filter = crate_set_audio_filter,
        .follow_album_gain = crate_follow_album_gain,
        .message_tag_double = crate_message_tag_double,
        .read_lavc_gapless = crate_read_lavc_gapless,
        .trim_m4a_gapless = crate_trim_m4a_gapless,
};
    return &table;
}
