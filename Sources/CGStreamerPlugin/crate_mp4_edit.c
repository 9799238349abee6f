// Reads the few boxes of an MP4 `moov` that say where an audio track's music starts and ends
// (mvhd; per track hdlr, mdhd, stts and edts/elst). Plain C with bounds checks on every read:
// the box comes straight from the user's file.
#include "crate_mp4_edit.h"
#include <string.h>

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/// One box inside [start, end): its body (after the header) and the offset past it.
typedef struct {
    size_t body, end;
    char type[4];
} box;

/// The box at `at` within `limit`, or 0 when it does not fit.
static int read_box(const uint8_t *data, size_t at, size_t limit, box *out) {
    if (at + 8 > limit) return 0;
    uint64_t size = be32(data + at);
    size_t header = 8;
    if (size == 1) {
        if (at + 16 > limit) return 0;
        size = be64(data + at + 8);
        header = 16;
    } else if (size == 0) {
        size = limit - at;
    }
    if (size < header || size > limit - at) return 0;
    memcpy(out->type, data + at + 4, 4);
    out->body = at + header;
    out->end = at + (size_t)size;
    return 1;
}

/// The first child of type `type` of the box whose body is [start, end).
static int find_child(const uint8_t *data, size_t start, size_t end, const char *type, box *out) {
    size_t at = start;
    box b;
    while (read_box(data, at, end, &b)) {
        if (memcmp(b.type, type, 4) == 0) {
            *out = b;
            return 1;
        }
        at = b.end;
    }
    return 0;
}

/// A path of children, e.g. "mdia/minf/stbl/stts".
static int find_path(const uint8_t *data, box parent, const char *path, box *out) {
    box current = parent;
    while (*path) {
        if (strlen(path) < 4 || !find_child(data, current.body, current.end, path, &current)) return 0;
        path += 4;
        if (*path == '/') path++;
    }
    *out = current;
    return 1;
}

/// The timescale of an mvhd or mdhd body (same layout up to it).
static int header_timescale(const uint8_t *data, box b, uint32_t *timescale) {
    if (b.body >= b.end) return 0;
    size_t at = b.body + (data[b.body] == 1 ? 20 : 12);
    if (at + 4 > b.end) return 0;
    *timescale = be32(data + at);
    return *timescale > 0;
}

static int is_audio(const uint8_t *data, box trak) {
    box hdlr;
    return find_path(data, trak, "mdia/hdlr", &hdlr) && hdlr.body + 12 <= hdlr.end &&
           memcmp(data + hdlr.body + 8, "soun", 4) == 0;
}

/// Sum of the sample durations in stts, in media units.
static int stts_total(const uint8_t *data, box stts, uint64_t *total) {
    if (stts.body + 8 > stts.end) return 0;
    uint32_t count = be32(data + stts.body + 4);
    if ((uint64_t)count * 8 > stts.end - stts.body - 8) return 0;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *entry = data + stts.body + 8 + (size_t)i * 8;
        uint64_t add = (uint64_t)be32(entry) * be32(entry + 4);
        if (sum > UINT64_MAX / 2 || add > UINT64_MAX / 2) return 0;
        sum += add;
    }
    *total = sum;
    return sum > 0;
}

int crate_mp4_plan_edit(const uint8_t *moov, size_t size, crate_mp4_edit_plan *plan) {
    box root, mvhd, trak, audio, elst, mdhd, stts;
    if (!moov || !plan || !read_box(moov, 0, size, &root) || memcmp(root.type, "moov", 4) != 0) return 0;
    uint32_t movie_scale = 0, media_scale = 0;
    if (!find_child(moov, root.body, root.end, "mvhd", &mvhd) || !header_timescale(moov, mvhd, &movie_scale)) return 0;
    int audio_tracks = 0;
    for (size_t at = root.body; read_box(moov, at, root.end, &trak); at = trak.end) {
        if (memcmp(trak.type, "trak", 4) != 0 || !is_audio(moov, trak)) continue;
        audio = trak;
        audio_tracks++;
    }
    if (audio_tracks != 1) return 0;
    if (!find_path(moov, audio, "edts/elst", &elst) || !find_path(moov, audio, "mdia/mdhd", &mdhd) ||
        !find_path(moov, audio, "mdia/minf/stbl/stts", &stts) || !header_timescale(moov, mdhd, &media_scale))
        return 0;
    uint64_t total = 0;
    if (!stts_total(moov, stts, &total) || elst.body + 8 > elst.end) return 0;
    int version = moov[elst.body];
    if (be32(moov + elst.body + 4) != 1) return 0; // one edit, nothing else (no empty edit before it)
    size_t entry = elst.body + 8;
    int width = version == 1 ? 8 : 4;
    if (entry + 2 * (size_t)width + 4 > elst.end) return 0;
    uint64_t duration = width == 8 ? be64(moov + entry) : be32(moov + entry);
    int64_t media_time = width == 8 ? (int64_t)be64(moov + entry + 8) : (int64_t)(int32_t)be32(moov + entry + 4);
    uint32_t rate = be32(moov + entry + 2 * width);
    if (media_time < 0 || rate != 0x00010000 || (uint64_t)media_time >= total || duration == 0) return 0;
    if (duration > UINT64_MAX / media_scale) return 0;

    // Where the edit ends in media units, and one movie tick there (the edit's own precision:
    // ffmpeg writes milliseconds, so its end misses the last sample by up to a tick).
    uint64_t edit_end = (uint64_t)media_time + (duration * media_scale + movie_scale / 2) / movie_scale;
    uint64_t tick = (media_scale + movie_scale - 1) / movie_scale;
    uint64_t end = total;
    if (edit_end + tick < total) end = edit_end;
    // Two frames of 2048 samples past the edit's end: qtdemux then reaches its last packet.
    uint64_t extra = ((uint64_t)4096 * movie_scale + media_scale - 1) / media_scale + 1;
    uint64_t lengthened = duration + extra;
    if (width == 4 && lengthened > UINT32_MAX) return 0;
    plan->duration_offset = entry;
    plan->duration_width = width;
    plan->lengthened_duration = lengthened;
    plan->end_media = end;
    plan->media_timescale = media_scale;
    return 1;
}
