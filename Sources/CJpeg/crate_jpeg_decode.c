#include <string.h>
#include "crate_jpeg_internal.h"

static crate_jpeg_colorspace map_colorspace(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return CRATE_JPEG_CS_GRAY;
    case JCS_RGB: return CRATE_JPEG_CS_RGB;
    case JCS_YCbCr: return CRATE_JPEG_CS_YCBCR;
    case JCS_CMYK: return CRATE_JPEG_CS_CMYK;
    case JCS_YCCK: return CRATE_JPEG_CS_YCCK;
    default: return CRATE_JPEG_CS_UNKNOWN;
    }
}

/// Checks the header's dimensions before anything image-sized is allocated.
static int header_too_large(j_decompress_ptr cinfo, crate_error_mgr *mgr) {
    unsigned long long pixels = (unsigned long long)cinfo->image_width * cinfo->image_height;
    if (pixels <= CRATE_JPEG_MAX_PIXELS) return 0;
    mgr->status = CRATE_JPEG_TOO_LARGE;
    snprintf(mgr->message, sizeof(mgr->message), "%ux%u is more than %llu pixels",
             cinfo->image_width, cinfo->image_height, CRATE_JPEG_MAX_PIXELS);
    return 1;
}

/// Smallest n/8 whose shorter scaled side is still ≥ min_short_side.
static int choose_scale(j_decompress_ptr cinfo, int min_short_side, int power_of_two_only) {
    if (min_short_side <= 0) return 8;
    for (int num = 1; num < 8; num++) {
        if (power_of_two_only && (num & (num - 1)) != 0) continue;
        cinfo->scale_num = (unsigned)num;
        cinfo->scale_denom = 8;
        jpeg_calc_output_dimensions(cinfo);
        unsigned shorter = cinfo->output_width < cinfo->output_height ? cinfo->output_width : cinfo->output_height;
        if ((int)shorter >= min_short_side) return num;
    }
    return 8;
}

crate_jpeg_status crate_jpeg_probe(const uint8_t *data, size_t size, int min_short_side,
                                   int power_of_two_only, crate_jpeg_info *info,
                                   crate_jpeg_error *error) {
    if (!data || size == 0 || !info) {
        crate_error_set(error, CRATE_JPEG_BAD_ARGUMENT, "no data");
        return CRATE_JPEG_BAD_ARGUMENT;
    }
    struct jpeg_decompress_struct cinfo;
    crate_error_mgr mgr;
    cinfo.err = crate_error_init(&mgr);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        crate_error_report(&mgr, error);
        return error ? error->status : CRATE_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    memset(info, 0, sizeof(*info));
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    if (header_too_large(&cinfo, &mgr)) {
        jpeg_destroy_decompress(&cinfo);
        crate_error_report(&mgr, error);
        return CRATE_JPEG_TOO_LARGE;
    }
    info->components = cinfo.num_components;
    info->color_space = map_colorspace(cinfo.jpeg_color_space);
    info->progressive = cinfo.progressive_mode ? 1 : 0;
    info->orientation = crate_exif_orientation(&cinfo);
    int num = choose_scale(&cinfo, min_short_side, power_of_two_only);
    cinfo.scale_num = (unsigned)num;
    cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&cinfo);
    info->scale_num = num;
    info->scaled_width = (int)cinfo.output_width;
    info->scaled_height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    if (info->color_space == CRATE_JPEG_CS_UNKNOWN) {
        crate_error_set(error, CRATE_JPEG_UNSUPPORTED, "unknown JPEG colour space");
        return CRATE_JPEG_UNSUPPORTED;
    }
    crate_error_set(error, CRATE_JPEG_OK, "");
    return CRATE_JPEG_OK;
}

/// CMYK rows to RGB. Adobe (Photoshop) files store the channels inverted.
static void cmyk_row_to_rgb(const JSAMPLE *src, uint8_t *dst, unsigned width, int inverted) {
    for (unsigned x = 0; x < width; x++) {
        unsigned c = src[0], m = src[1], y = src[2], k = src[3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        dst[0] = (uint8_t)((c * k + 127) / 255);
        dst[1] = (uint8_t)((m * k + 127) / 255);
        dst[2] = (uint8_t)((y * k + 127) / 255);
        src += 4;
        dst += 3;
    }
}

crate_jpeg_status crate_jpeg_decode_rgb(const uint8_t *data, size_t size, int scale_num, int fast,
                                        uint8_t *out, size_t out_capacity, int *out_width,
                                        int *out_height, crate_jpeg_error *error) {
    return crate_jpeg_decode_rgb_rows(data, size, scale_num, fast, out, out_capacity, out_width, out_height,
                                      error, NULL, NULL);
}

crate_jpeg_status crate_jpeg_decode_rgb_rows(const uint8_t *data, size_t size, int scale_num, int fast,
                                             uint8_t *out, size_t out_capacity, int *out_width,
                                             int *out_height, crate_jpeg_error *error,
                                             crate_jpeg_rows_callback on_rows, void *context) {
    if (!data || size == 0 || !out || scale_num < 1 || scale_num > 8) {
        crate_error_set(error, CRATE_JPEG_BAD_ARGUMENT, "bad arguments");
        return CRATE_JPEG_BAD_ARGUMENT;
    }
    struct jpeg_decompress_struct cinfo;
    crate_error_mgr mgr;
    crate_progress_mgr progress;
    cinfo.err = crate_error_init(&mgr);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        crate_error_report(&mgr, error);
        return error ? error->status : CRATE_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    crate_progress_init(&cinfo, &progress);
    // Bounds libjpeg's own allocations too (coefficient buffers of progressive files).
    cinfo.mem->max_memory_to_use = 1024L * 1024L * 1024L;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (header_too_large(&cinfo, &mgr)) {
        jpeg_destroy_decompress(&cinfo);
        crate_error_report(&mgr, error);
        return CRATE_JPEG_TOO_LARGE;
    }
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    cinfo.scale_num = (unsigned)scale_num;
    cinfo.scale_denom = 8;
    if (fast) {
        cinfo.do_fancy_upsampling = FALSE;
        cinfo.dct_method = JDCT_IFAST;
    }
    jpeg_calc_output_dimensions(&cinfo);
    size_t needed = (size_t)cinfo.output_width * cinfo.output_height * 3;
    if (needed > out_capacity) {
        jpeg_destroy_decompress(&cinfo);
        crate_error_set(error, CRATE_JPEG_BAD_ARGUMENT, "output buffer too small");
        return CRATE_JPEG_BAD_ARGUMENT;
    }
    jpeg_start_decompress(&cinfo);
    const unsigned width = cinfo.output_width;
    const size_t stride = (size_t)width * 3;
    JSAMPARRAY scratch = NULL;
    if (cmyk) {
        // Pool memory: released by jpeg_destroy_decompress on every path.
        scratch = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, width * 4, 1);
    }
    int inverted = cinfo.saw_Adobe_marker;
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *row = out + stride * cinfo.output_scanline;
        if (cmyk) {
            if (jpeg_read_scanlines(&cinfo, scratch, 1) == 1) cmyk_row_to_rgb(scratch[0], row, width, inverted);
        } else {
            JSAMPROW rows[16];
            unsigned left = cinfo.output_height - cinfo.output_scanline;
            unsigned count = left < 16 ? left : 16;
            for (unsigned i = 0; i < count; i++) rows[i] = row + stride * i;
            jpeg_read_scanlines(&cinfo, rows, count);
        }
        // Called between libjpeg calls, never from inside one: an error's longjmp can't cross it.
        if (on_rows) on_rows(context, (int)cinfo.output_scanline);
    }
    jpeg_finish_decompress(&cinfo);
    if (out_width) *out_width = (int)cinfo.output_width;
    if (out_height) *out_height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    crate_error_set(error, CRATE_JPEG_OK, "");
    return CRATE_JPEG_OK;
}
