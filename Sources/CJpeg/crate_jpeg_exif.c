#include <string.h>
#include "crate_jpeg_internal.h"

/// Reads a 16- or 32-bit value with the TIFF byte order; callers have bounds-checked.
static unsigned read16(const JOCTET *p, int little) {
    return little ? (unsigned)(p[0] | (p[1] << 8)) : (unsigned)((p[0] << 8) | p[1]);
}

static unsigned long read32(const JOCTET *p, int little) {
    return little
        ? ((unsigned long)p[0] | ((unsigned long)p[1] << 8) | ((unsigned long)p[2] << 16) | ((unsigned long)p[3] << 24))
        : (((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | (unsigned long)p[3]);
}

/// Parses IFD0 of an EXIF block for tag 0x0112. Every offset is checked against the block
/// length because the data comes straight from an untrusted file.
static int orientation_from_exif(const JOCTET *data, unsigned int length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 0;
    const JOCTET *tiff = data + 6;
    unsigned long size = length - 6;
    int little;
    if (tiff[0] == 'I' && tiff[1] == 'I') little = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M') little = 0;
    else return 0;
    if (read16(tiff + 2, little) != 42) return 0;
    unsigned long ifd = read32(tiff + 4, little);
    if (ifd > size || size - ifd < 2) return 0;
    unsigned count = read16(tiff + ifd, little);
    unsigned long entries = ifd + 2;
    for (unsigned i = 0; i < count; i++) {
        unsigned long entry = entries + (unsigned long)i * 12;
        if (entry > size || size - entry < 12) return 0;
        if (read16(tiff + entry, little) != 0x0112) continue;
        unsigned type = read16(tiff + entry + 2, little);
        if (type != 3) return 0;  // SHORT
        unsigned value = read16(tiff + entry + 8, little);
        return (value >= 1 && value <= 8) ? (int)value : 0;
    }
    return 0;
}

int crate_exif_orientation(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next) {
        if (m->marker != JPEG_APP0 + 1) continue;
        int value = orientation_from_exif(m->data, m->data_length);
        if (value) return value;
    }
    return 1;
}
