#ifndef CRATE_JPEG_H
#define CRATE_JPEG_H

/*
 * A small, safe wrapper over libjpeg(-turbo).
 *
 * Why C: libjpeg's default error handler calls exit(), and recovering from an error needs
 * setjmp/longjmp, which Swift cannot use. Every function here runs setjmp in its own frame and
 * the error manager longjmps only back into that frame, so no longjmp ever crosses a Swift frame.
 * Every function frees everything it allocated on every path and reports failures as a status
 * code plus a message.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Pillow's decompression-bomb limit: images above this many pixels are refused from the header.
#define CRATE_JPEG_MAX_PIXELS 89478485ULL
/// Progressive files with more scans than this are refused (a few KB can otherwise burn minutes).
#define CRATE_JPEG_MAX_SCANS 500

typedef enum {
    CRATE_JPEG_OK = 0,
    /// The data is not a JPEG at all (no SOI marker, or header unreadable).
    CRATE_JPEG_NOT_JPEG = 1,
    /// The file is a JPEG but damaged: truncated, corrupt entropy data, bad markers.
    CRATE_JPEG_CORRUPT = 2,
    /// Width × height above CRATE_JPEG_MAX_PIXELS.
    CRATE_JPEG_TOO_LARGE = 3,
    /// Too many progressive scans.
    CRATE_JPEG_TOO_MANY_SCANS = 4,
    /// A JPEG variant this wrapper does not decode (e.g. 12-bit, unknown colour space).
    CRATE_JPEG_UNSUPPORTED = 5,
    /// A caller mistake: null pointers, a buffer too small, bad dimensions.
    CRATE_JPEG_BAD_ARGUMENT = 6,
    /// Out of memory.
    CRATE_JPEG_NO_MEMORY = 7
} crate_jpeg_status;

typedef enum {
    CRATE_JPEG_CS_UNKNOWN = 0,
    CRATE_JPEG_CS_GRAY = 1,
    CRATE_JPEG_CS_RGB = 2,
    CRATE_JPEG_CS_YCBCR = 3,
    CRATE_JPEG_CS_CMYK = 4,
    CRATE_JPEG_CS_YCCK = 5
} crate_jpeg_colorspace;

typedef struct {
    /// Stored dimensions (before EXIF orientation).
    int width;
    int height;
    int components;
    crate_jpeg_colorspace color_space;
    int progressive;
    /// EXIF orientation 1–8 (1 when absent or invalid).
    int orientation;
    /// Chosen DCT scale numerator (denominator 8) and the dimensions it decodes to.
    int scale_num;
    int scaled_width;
    int scaled_height;
} crate_jpeg_info;

typedef struct {
    crate_jpeg_status status;
    /// libjpeg's own message, for logs.
    char message[200];
} crate_jpeg_error;

/// Reads the header only. `min_short_side` > 0 picks the smallest DCT scale (n/8) whose shorter
/// side is still ≥ min_short_side (never upscaling); 0 keeps full size.
/// `power_of_two_only` restricts the scale to 1/8, 1/4, 1/2, 1 (the SIMD-accelerated ones).
crate_jpeg_status crate_jpeg_probe(const uint8_t *data, size_t size, int min_short_side,
                                   int power_of_two_only, crate_jpeg_info *info,
                                   crate_jpeg_error *error);

/// Decodes to packed RGB (3 bytes per pixel) at scale `scale_num`/8 into `out`, which must hold
/// scaled_width × scaled_height × 3 bytes as reported by crate_jpeg_probe for the same scale.
/// Grayscale, CMYK and YCCK are converted to RGB. `fast` trades a little quality for speed
/// (no fancy chroma upsampling, fast integer IDCT) — fine when the result is downscaled anyway.
crate_jpeg_status crate_jpeg_decode_rgb(const uint8_t *data, size_t size, int scale_num, int fast,
                                        uint8_t *out, size_t out_capacity, int *out_width,
                                        int *out_height, crate_jpeg_error *error);

/// Told how many rows of `out` are complete, after each batch of rows (at most 16).
typedef void (*crate_jpeg_rows_callback)(void *context, int rows_done);

/// `crate_jpeg_decode_rgb` that reports progress, so another thread can consume rows while the
/// rest decode. `on_rows` may be NULL.
crate_jpeg_status crate_jpeg_decode_rgb_rows(const uint8_t *data, size_t size, int scale_num, int fast,
                                             uint8_t *out, size_t out_capacity, int *out_width,
                                             int *out_height, crate_jpeg_error *error,
                                             crate_jpeg_rows_callback on_rows, void *context);

/// Encodes packed RGB to a JPEG in memory. On success `*out` is a malloc'd buffer the caller
/// releases with crate_jpeg_free.
crate_jpeg_status crate_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                                        uint8_t **out, size_t *out_size, crate_jpeg_error *error);

/// Keeps large allocations (decoded photos, luma tables: 5–12 MB each) in the heap instead of
/// fresh mmaps, and freed memory in the process: otherwise every photo pays thousands of page
/// faults (~8 ms of a 40 ms decode). No-op where the C library has no mallopt.
void crate_tune_allocator(void);

/// Frees a buffer returned by crate_jpeg_encode_rgb.
void crate_jpeg_free(void *buffer);

/// Reads a PNG's size (for the pixel cap) without decoding it. Returns 0, or -1 when the bytes
/// are not a PNG libpng can read (`message` then says why).
int crate_png_probe(const unsigned char *data, size_t size, uint32_t *width, uint32_t *height,
                    char *message, size_t message_size);

/// Decodes a PNG (any colour type, with transparency composited on white) to 8-bit RGB into
/// `out`, which must hold width × height × 3 bytes. libpng's simplified API keeps its own error
/// handling in C. Returns 0, or -1 with `message`.
int crate_png_decode_rgb(const unsigned char *data, size_t size, unsigned char *out, size_t out_size,
                         char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
