#ifndef CRATE_MP4_EDIT_H
#define CRATE_MP4_EDIT_H
/// Gapless M4A on GStreamer 1.22 (docs/decisions/0046-replaygain-and-lossy-gapless.md): the
/// plugin's own parts, not in the table of crate_plugins.h.
#include <stddef.h>
#include <stdint.h>

/// What to change in a file's `moov` box so qtdemux pushes the last packet, and where the music
/// really ends.
typedef struct {
    /// Byte offset (from the box's first byte) of the audio edit's segment duration, and its
    /// width: 4 (`elst` version 0) or 8 (version 1), big-endian.
    size_t duration_offset;
    int duration_width;
    /// The lengthened segment duration (movie timescale) to write there.
    uint64_t lengthened_duration;
    /// The last sample of music ends here, in the track's media time (`mdhd` timescale): the
    /// sum of `stts`, or the edit's own end when that is earlier by more than the movie
    /// timescale's rounding (an encoder that marks its padding only in the edit).
    uint64_t end_media;
    uint32_t media_timescale;
} crate_mp4_edit_plan;

/// Plans the repair for a whole `moov` box (header included). Non-zero only for a movie with
/// exactly one audio track whose edit list is one edit starting at media time ≥ 0 at rate 1
/// (the encoder's priming is cut there: the file carries gapless information); any other file,
/// or a box that does not parse, gives 0 and must be left alone.
int crate_mp4_plan_edit(const uint8_t *moov, size_t size, crate_mp4_edit_plan *plan);

/// Connects to playbin's "element-setup": each qtdemux gets the two probes of the repair.
void crate_trim_m4a_gapless(void *playbin);

#endif
