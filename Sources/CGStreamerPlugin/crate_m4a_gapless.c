// Gapless AAC in M4A on GStreamer 1.22 (docs/decisions/0046-replaygain-and-lossy-gapless.md).
// qtdemux 1.22 stops before each file's last packet: its end check compares the packet's media
// time before the edit's priming is taken off with the edit's end. Two probes per qtdemux repair
// it without writing the file:
//   1. on its sink pad, the pulled `moov` gets the audio edit lengthened by two frames in
//      memory, so the last packet is pushed;
//   2. on its audio pad, each segment event's stop becomes the sample-exact end (sum of `stts`),
//      so the decoder clips its padding there. Every segment gets it again, seeks included.
// Files without an edit (no gapless information) pass untouched.
#include "crate_mp4_edit.h"
#include <gst/gst.h>
#include <string.h>

/// Per qtdemux (its "crate-m4a-end" data): where the music ends in the audio pad's media time,
/// GST_CLOCK_TIME_NONE when the current file was not repaired. Written by the moov probe and read
/// by the segment probe, both on qtdemux's streaming thread (the pads come after the moov).
typedef struct {
    GstClockTime end;
} crate_m4a_end;

static GstPadProbeReturn crate_moov_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user) {
    (void)pad;
    crate_m4a_end *state = user;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer || gst_buffer_get_size(buffer) < 16) return GST_PAD_PROBE_OK;
    guint8 head[8];
    if (gst_buffer_extract(buffer, 0, head, 8) != 8 || memcmp(head + 4, "moov", 4) != 0) return GST_PAD_PROBE_OK;
    // The 16-byte header read also starts with "moov": only the whole box (its size) is parsed.
    guint32 declared = GST_READ_UINT32_BE(head);
    if (declared != 1 && declared != gst_buffer_get_size(buffer)) return GST_PAD_PROBE_OK;
    state->end = GST_CLOCK_TIME_NONE;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return GST_PAD_PROBE_OK;
    crate_mp4_edit_plan plan;
    int planned = crate_mp4_plan_edit(map.data, map.size, &plan);
    gst_buffer_unmap(buffer, &map);
    if (!planned || plan.end_media > G_MAXUINT64 / 4) return GST_PAD_PROBE_OK;
    guint8 field[8];
    if (plan.duration_width == 8) GST_WRITE_UINT64_BE(field, plan.lengthened_duration);
    else GST_WRITE_UINT32_BE(field, (guint32)plan.lengthened_duration);
    buffer = gst_buffer_make_writable(buffer);
    gst_buffer_fill(buffer, plan.duration_offset, field, (gsize)plan.duration_width);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    // Half a sample before the end: the decoder's clip rounds the cut down to whole samples, and
    // the exact end in nanoseconds (rounded down) would keep one sample of padding.
    state->end = gst_util_uint64_scale(plan.end_media * 2 - 1, GST_SECOND, (guint64)plan.media_timescale * 2);
    return GST_PAD_PROBE_OK;
}

/// Segments after a seek keep the end: the stop is set on every one that reaches past it.
static GstPadProbeReturn crate_segment_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user) {
    (void)pad;
    crate_m4a_end *state = user;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (!event || GST_EVENT_TYPE(event) != GST_EVENT_SEGMENT || !GST_CLOCK_TIME_IS_VALID(state->end)) return GST_PAD_PROBE_OK;
    const GstSegment *segment = NULL;
    gst_event_parse_segment(event, &segment);
    if (!segment || segment->format != GST_FORMAT_TIME || segment->rate < 0 || segment->start >= state->end ||
        (GST_CLOCK_TIME_IS_VALID(segment->stop) && segment->stop <= state->end))
        return GST_PAD_PROBE_OK;
    GstSegment cut;
    gst_segment_copy_into(segment, &cut);
    cut.stop = state->end;
    GstEvent *replacement = gst_event_new_segment(&cut);
    gst_event_set_seqnum(replacement, gst_event_get_seqnum(event));
    gst_event_set_running_time_offset(replacement, gst_event_get_running_time_offset(event));
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = replacement;
    return GST_PAD_PROBE_OK;
}

static void crate_m4a_pad_added(GstElement *demux, GstPad *pad, gpointer user) {
    (void)demux;
    // Only a movie with exactly one audio track is repaired: its pad is qtdemux's "audio_N".
    if (!g_str_has_prefix(GST_PAD_NAME(pad), "audio_")) return;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, crate_segment_probe, user, NULL);
}

static void crate_m4a_element_setup(GstElement *playbin, GstElement *element, gpointer user) {
    (void)playbin;
    (void)user;
    GstElementFactory *factory = gst_element_get_factory(element);
    if (!factory || strcmp(GST_OBJECT_NAME(factory), "qtdemux") != 0) return;
    GstPad *sink = gst_element_get_static_pad(element, "sink");
    if (!sink) return;
    crate_m4a_end *state = g_new0(crate_m4a_end, 1);
    state->end = GST_CLOCK_TIME_NONE;
    // The element owns the state: the probes and the handler never outlive it.
    g_object_set_data_full(G_OBJECT(element), "crate-m4a-end", state, g_free);
    // Pulled buffers only (a local file): a file read in push mode plays as before. The probe
    // stays, so a qtdemux reused for another file is repaired again.
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_PULL | GST_PAD_PROBE_TYPE_BUFFER, crate_moov_probe, state, NULL);
    gst_object_unref(sink);
    g_signal_connect(element, "pad-added", G_CALLBACK(crate_m4a_pad_added), state);
}

void crate_trim_m4a_gapless(void *playbin) {
    g_signal_connect(playbin, "element-setup", G_CALLBACK(crate_m4a_element_setup), NULL);
}
