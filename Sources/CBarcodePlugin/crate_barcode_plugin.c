// libCrateBarcode.so: ZBar's image scanner behind the plain C table of crate_plugins.h. ZBar pulls in
// D-Bus, V4L2 and X11, so a process that never reads a barcode does not load it.
#include "crate_plugins.h"
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

_Static_assert(CRATE_BARCODE_EAN8 == ZBAR_EAN8, "ZBar's EAN-8 number");
_Static_assert(CRATE_BARCODE_UPCE == ZBAR_UPCE, "ZBar's UPC-E number");
_Static_assert(CRATE_BARCODE_UPCA == ZBAR_UPCA, "ZBar's UPC-A number");
_Static_assert(CRATE_BARCODE_EAN13 == ZBAR_EAN13, "ZBar's EAN-13 number");

/// A scanner for the four retail symbologies alone: fewer decoders run on every edge, and a QR
/// code or a Code 128 on the sleeve is never reported. UPC-A and UPC-E are enabled as symbologies
/// of their own, so ZBar reports them as such instead of as EAN-13 with a leading 0.
static zbar_image_scanner_t *crate_barcode_scanner(int row_density, int column_density) {
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    if (!scanner) return NULL;
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
    const zbar_symbol_type_t wanted[] = { ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        zbar_image_scanner_set_config(scanner, wanted[i], ZBAR_CFG_ENABLE, 1);
        zbar_image_scanner_set_config(scanner, wanted[i], ZBAR_CFG_EMIT_CHECK, 1);
    }
    // ZBar's X density is the spacing of the columns it scans, Y that of the rows.
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, column_density);
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, row_density);
    return scanner;
}

static int32_t crate_barcode_decode_grey(const uint8_t *grey, int32_t width, int32_t height, int32_t stride,
                                         int32_t row_density, int32_t column_density, crate_barcode_symbol *out,
                                         int32_t capacity) {
    if (!grey || width <= 0 || height <= 0 || stride < width || capacity < 0 || (capacity > 0 && !out)) return -1;
    if (row_density < 0) row_density = 0;
    if (column_density < 0) column_density = 0;
    if (row_density == 0 && column_density == 0) return 0;
    // ZBar wants the rows packed; copy only when they are not.
    const size_t size = (size_t)width * (size_t)height;
    uint8_t *packed = NULL;
    const uint8_t *pixels = grey;
    if (stride != width) {
        packed = malloc(size);
        if (!packed) return -1;
        for (int32_t y = 0; y < height; y++) memcpy(packed + (size_t)y * width, grey + (size_t)y * stride, width);
        pixels = packed;
    }
    zbar_image_scanner_t *scanner = crate_barcode_scanner(row_density, column_density);
    zbar_image_t *image = zbar_image_create();
    if (!scanner || !image) {
        if (scanner) zbar_image_scanner_destroy(scanner);
        if (image) zbar_image_destroy(image);
        free(packed);
        return -1;
    }
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(image, (unsigned)width, (unsigned)height);
    // No cleanup handler: the pixels stay the caller's (or `packed`, freed below).
    zbar_image_set_data(image, pixels, size, NULL);
    int32_t found = 0;
    if (zbar_scan_image(scanner, image) > 0) {
        for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); symbol; symbol = zbar_symbol_next(symbol)) {
            if (found < capacity) {
                crate_barcode_symbol *s = &out[found];
                memset(s, 0, sizeof *s);
                s->symbology = (int32_t)zbar_symbol_get_type(symbol);
                s->quality = zbar_symbol_get_quality(symbol);
                const char *data = zbar_symbol_get_data(symbol);
                unsigned length = zbar_symbol_get_data_length(symbol);
                if (length >= CRATE_BARCODE_MAX_DIGITS) length = CRATE_BARCODE_MAX_DIGITS - 1;
                if (data) memcpy(s->digits, data, length);
                s->digits[length] = 0;
                unsigned points = zbar_symbol_get_loc_size(symbol);
                s->min_x = s->min_y = -1;
                for (unsigned i = 0; i < points; i++) {
                    int x = zbar_symbol_get_loc_x(symbol, i), y = zbar_symbol_get_loc_y(symbol, i);
                    if (i == 0 || x < s->min_x) s->min_x = x;
                    if (i == 0 || y < s->min_y) s->min_y = y;
                    if (i == 0 || x > s->max_x) s->max_x = x;
                    if (i == 0 || y > s->max_y) s->max_y = y;
                }
            }
            found++;
        }
    }
    zbar_image_destroy(image);
    zbar_image_scanner_destroy(scanner);
    free(packed);
    return found;
}

const crate_barcode_table *crate_barcode_plugin(void) {
    static const crate_barcode_table table = {
        .abi_version = CRATE_PLUGIN_ABI_VERSION,
        .size = sizeof(crate_barcode_table),
        .decode_grey = crate_barcode_decode_grey,
    };
    return &table;
}
