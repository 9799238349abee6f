#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include "crate_jpeg_internal.h"

/// State that must survive a longjmp lives in memory, not in registers.
typedef struct {
    unsigned char *buffer;
    unsigned long size;
} crate_mem_output;

crate_jpeg_status crate_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                                        uint8_t **out, size_t *out_size, crate_jpeg_error *error) {
    if (!rgb || !out || !out_size || width <= 0 || height <= 0 ||
        (unsigned long long)width * (unsigned long long)height > CRATE_JPEG_MAX_PIXELS) {
        crate_error_set(error, CRATE_JPEG_BAD_ARGUMENT, "bad arguments");
        return CRATE_JPEG_BAD_ARGUMENT;
    }
    *out = NULL;
    *out_size = 0;
    struct jpeg_compress_struct cinfo;
    crate_error_mgr mgr;
    crate_mem_output output = { NULL, 0 };
    cinfo.err = crate_error_init(&mgr);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(output.buffer);  // jpeg_mem_dest's buffer is ours to free, even on failure.
        crate_error_report(&mgr, error);
        return error ? error->status : CRATE_JPEG_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &output.buffer, &output.size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    const size_t stride = (size_t)width * 3;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + stride * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = output.buffer;
    *out_size = output.size;
    crate_error_set(error, CRATE_JPEG_OK, "");
    return CRATE_JPEG_OK;
}

void crate_jpeg_free(void *buffer) {
    free(buffer);
}

void crate_tune_allocator(void) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    // glibc: up to 64 MB from the heap, and keep up to 256 MB of freed memory for reuse.
    mallopt(M_MMAP_THRESHOLD, 64 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}
