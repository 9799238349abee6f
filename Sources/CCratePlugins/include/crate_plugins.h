#ifndef CRATE_PLUGINS_H
#define CRATE_PLUGINS_H
/// The plain C function tables of Crate's loadable parts, each built as its own shared object
/// and opened with dlopen at first use (docs/decisions, "Heavy libraries loaded at first use"):
///
///   libCrateCoverCheck.so  tier-0 verification (C++ over OpenCV)      crate_cover_check_plugin()
///   libCrateGStreamer.so   the GStreamer player's calls               crate_gstreamer_plugin()
///   libCrateSecret.so      API keys in the Secret Service (libsecret) crate_secret_plugin()
///   libCrateBarcode.so     EAN/UPC barcodes in photos (ZBar)          crate_barcode_plugin()
///
/// The executables link neither OpenCV, GStreamer, libsecret nor ZBar; they include this header only for the
/// types. Each entry point returns a table whose first two fields are the ABI version and the
/// table's size; the loader refuses a table with another version or a smaller size.
#include <stddef.h>
#include <stdint.h>
#include "crate_cover_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/// 2: the GStreamer table gained `bus_set_message_handler` and `message_source_uri` (bus messages
/// are taken where they are posted). 3: the cover check's result and limits judge where a cover
/// differs (`occluded`, `content`, `max_occluded`, `max_content`), and the GStreamer table the
/// camera's `pipeline_from_description` and `appsink_pull_rgb`. 4: the cover check starts from
/// a quadrilateral (`corners`: the cover's outline or a crop square) instead of a square; the
/// GStreamer table gained `set_audio_filter`, `follow_album_gain` and `message_tag_double`
/// (ReplayGain), `read_lavc_gapless` (MP3 from ffmpeg), and the message type CRATE_GST_MESSAGE_TAG.
/// 5: the GStreamer table gained `trim_m4a_gapless` (AAC in M4A).
#define CRATE_PLUGIN_ABI_VERSION 5

/// libCrateCoverCheck.so
typedef struct {
    uint32_t abi_version;
    uint32_t size;
    crate_cover_check_limits (*defaults)(void);
    void (*run)(const uint8_t *photo, int32_t photo_width, int32_t photo_height, const uint8_t *cover,
                int32_t cover_width, int32_t cover_height, const double *corners,
                crate_cover_check_limits limits, crate_cover_check *out);
} crate_cover_check_table;

const crate_cover_check_table *crate_cover_check_plugin(void);
typedef const crate_cover_check_table *(*crate_cover_check_plugin_fn)(void);

/// Bus messages the player reads (everything else is CRATE_GST_MESSAGE_OTHER).
enum {
    CRATE_GST_MESSAGE_OTHER = 0,
    CRATE_GST_MESSAGE_STREAM_START = 1,
    CRATE_GST_MESSAGE_EOS = 2,
    CRATE_GST_MESSAGE_ASYNC_DONE = 3,
    CRATE_GST_MESSAGE_DURATION_CHANGED = 4,
    CRATE_GST_MESSAGE_ERROR = 5,
    CRATE_GST_MESSAGE_ELEMENT = 6,
    CRATE_GST_MESSAGE_TAG = 7,
};

/// GstState values (the plugin checks they are GStreamer's).
enum {
    CRATE_GST_STATE_NULL = 1,
    CRATE_GST_STATE_READY = 2,
    CRATE_GST_STATE_PAUSED = 3,
    CRATE_GST_STATE_PLAYING = 4,
};

/// Error codes the player tells apart (GstCoreError, GstStreamError, GstResourceError values;
/// the plugin checks they are GStreamer's).
enum {
    CRATE_GST_CORE_ERROR_MISSING_PLUGIN = 12,
    CRATE_GST_STREAM_ERROR_CODEC_NOT_FOUND = 6,
    CRATE_GST_RESOURCE_ERROR_NOT_FOUND = 3,
    CRATE_GST_RESOURCE_ERROR_OPEN_READ = 5,
};

/// libCrateGStreamer.so: GStreamer objects cross as opaque pointers. Strings returned as `char *`
/// are freed with `free_string`; objects with `object_unref`.
typedef struct {
    uint32_t abi_version;
    uint32_t size;
    /// gst_init, once per process (the plugin guards it).
    void (*initialize)(void);
    /// Whether an element factory (a plugin feature) is installed.
    int (*has_element)(const char *name);
    void *(*element_factory_make)(const char *factory, const char *name);
    void *(*element_get_bus)(void *element);
    /// Pops one message within `timeout_ns`, or NULL.
    void *(*bus_timed_pop)(void *bus, uint64_t timeout_ns);
    int (*message_type)(void *message);
    void (*message_unref)(void *message);
    /// Whether the message came from a sink element.
    int (*message_from_sink)(void *message);
    /// Error details of an error/warning message: domain name (static), code, message (free_string).
    int (*parse_error)(void *message, const char **domain, char **text);
    /// The "missing-plugin" element message's caps as text, or NULL. free_string.
    char *(*missing_plugin_detail)(void *message);
    void (*free_string)(char *text);
    void (*object_unref)(void *object);
    void (*set_uri)(void *playbin, const char *uri);
    void (*set_volume)(void *playbin, double volume);
    void (*set_audio_sink)(void *playbin, void *sink);
    /// Audio only with software volume: no video window for files with cover art streams.
    void (*set_audio_only)(void *playbin);
    unsigned long (*signal_connect)(void *instance, const char *signal, void (*handler)(void), void *data);
    /// A sink description made into a bin; NULL and an error text (free_string) on failure.
    void *(*sink_from_description)(const char *description, char **error_text);
    /// An element by name inside a bin (unref when done), or NULL.
    void *(*bin_get_by_name)(void *bin, const char *name);
    int (*element_set_state)(void *element, int state);
    /// A flushing, accurate seek in time; non-zero on success.
    int (*element_seek_ns)(void *element, int64_t position_ns);
    /// Non-zero when known.
    int (*query_position_ns)(void *element, int64_t *position_ns);
    int (*query_duration_ns)(void *element, int64_t *duration_ns);
    uint64_t (*buffer_pts)(void *buffer);
    uint64_t (*buffer_duration)(void *buffer);
    /// A GstDiscoverer (benchmarks), or NULL; object_unref.
    void *(*discoverer_new)(uint64_t timeout_ns);
    /// The "album" tag of a file read with the discoverer, or NULL. free_string.
    char *(*discover_album)(void *discoverer, const char *uri);
    /// Takes every message of `bus` on the thread that posts it (a bus sync handler): `handler`
    /// gets the message (borrowed, valid during the call) and it is then dropped, so nothing
    /// queues on the bus. NULL removes the handler. The handler must not change any element's
    /// state, nor wait for a thread that may be posting.
    void (*bus_set_message_handler)(void *bus, void (*handler)(void *message, void *data), void *data);
    /// The URI of the file a message comes from: the "uri" property of the nearest element above
    /// the message's source that has one (playbin's per-file uridecodebin), playbin itself
    /// excluded (its "uri" is the next file). NULL when there is none (a sink's message). free_string.
    char *(*message_source_uri)(void *message);
    /// A pipeline from a gst-launch description (the camera preview), or NULL and an error text
    /// (free_string).
    void *(*pipeline_from_description)(const char *description, char **error_text);
    /// The next RGB frame of the appsink named `sink_name` in `pipeline`, waiting at most
    /// `timeout_ns`: a copy of its pixels (free_string), its size and its row stride; NULL when
    /// none came.
    uint8_t *(*appsink_pull_rgb)(void *pipeline, const char *sink_name, uint64_t timeout_ns, int32_t *width, int32_t *height,
                                 int32_t *stride);
    /// playbin's "audio-filter" (a bin from `sink_from_description`, or NULL for none); only
    /// while the playbin is in the NULL state. playbin takes its own reference.
    void (*set_audio_filter)(void *playbin, void *filter);
    /// Album gain per file on a `volume` element (playbin's audio filter): at each stream-start
    /// its "volume" becomes `stored_gain_db(data)` (the library's gain for the file starting, 0
    /// for none), and a tag event of that stream with an album gain (REPLAYGAIN_ALBUM_GAIN,
    /// adjusted to the 89 dB reference) replaces it. Called on the streaming thread.
    void (*follow_album_gain)(void *volume, double (*stored_gain_db)(void *data), void *data);
    /// A tag message's double tag (GStreamer's tag name, e.g. "replaygain-track-gain"); non-zero
    /// when the message has it.
    int (*message_tag_double)(void *message, const char *tag, double *value);
    /// Makes playbin's MP3 parser read the encoder delay and padding of MP3s made by ffmpeg: their
    /// LAME tag is signed "Lavc"/"Lavf", which GStreamer 1.22's mpegaudioparse ignores; the
    /// signature is read as "LAME" in the parser's first buffer (the file is never written).
    void (*read_lavc_gapless)(void *playbin);
    /// Makes playbin's M4A files end where their music ends: qtdemux 1.22 drops each file's last
    /// packet when the track has an edit list (encoder priming). Each qtdemux's pulled `moov`
    /// gets the audio edit lengthened in memory, and the segments on its audio pad stop at the
    /// sample-exact end (sum of `stts`), where the decoder clips. Files without an edit list, or
    /// read in push mode, play as before; the file is never written.
    void (*trim_m4a_gapless)(void *playbin);
} crate_gstreamer_table;

const crate_gstreamer_table *crate_gstreamer_plugin(void);
typedef const crate_gstreamer_table *(*crate_gstreamer_plugin_fn)(void);

/// libCrateSecret.so: Crate's one schema, a secret per name ("anthropic", "openai", …).
typedef struct {
    uint32_t abi_version;
    uint32_t size;
    /// Non-zero when a Secret Service answers on the session bus (checked without starting one).
    int (*available)(void);
    /// Non-zero when stored.
    int (*store)(const char *name, const char *label, const char *value);
    /// The stored value (free_password), or NULL.
    char *(*lookup)(const char *name);
    void (*free_password)(char *value);
} crate_secret_table;

const crate_secret_table *crate_secret_plugin(void);
typedef const crate_secret_table *(*crate_secret_plugin_fn)(void);

/// Symbologies of libCrateBarcode.so: ZBar's own numbers (the plugin checks they are ZBar's).
enum {
    CRATE_BARCODE_EAN8 = 8,
    CRATE_BARCODE_UPCE = 9,
    CRATE_BARCODE_UPCA = 12,
    CRATE_BARCODE_EAN13 = 13,
};

/// Longest text a symbol carries here (EAN-13 is 13 digits) plus its terminating NUL.
#define CRATE_BARCODE_MAX_DIGITS 24

/// One barcode found in a picture.
typedef struct {
    /// CRATE_BARCODE_EAN13, …: UPC-A and UPC-E are reported as themselves, never as EAN-13.
    int32_t symbology;
    /// ZBar's quality: how many scan lines decoded it (higher is surer).
    int32_t quality;
    /// The digits as printed under the bars (check digit included), NUL-terminated.
    char digits[CRATE_BARCODE_MAX_DIGITS];
    /// The bounding box of the scan lines that crossed it, in the picture's pixels.
    int32_t min_x, min_y, max_x, max_y;
} crate_barcode_symbol;

/// libCrateBarcode.so: EAN-13, EAN-8, UPC-A and UPC-E only (every other ZBar symbology is off).
typedef struct {
    uint32_t abi_version;
    uint32_t size;
    /// Decodes a greyscale picture (one byte a pixel, `stride` bytes a row) along every
    /// `row_density`-th row and every `column_density`-th column (1: all of them; 0: none in that
    /// direction, so two threads can take one direction each). Writes up to `capacity` symbols to
    /// `out` and returns how many were found (possibly more than `capacity`), or -1 when the
    /// picture cannot be scanned (bad size, out of memory). Safe to call from several threads.
    int32_t (*decode_grey)(const uint8_t *grey, int32_t width, int32_t height, int32_t stride, int32_t row_density,
                           int32_t column_density, crate_barcode_symbol *out, int32_t capacity);
} crate_barcode_table;

const crate_barcode_table *crate_barcode_plugin(void);
typedef const crate_barcode_table *(*crate_barcode_plugin_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
