// PNG artwork (the Cover Art Archive serves some) through libpng's simplified API, whose
// setjmp/longjmp error handling stays inside libpng: nothing unwinds through Swift frames.
#include "crate_jpeg.h"

#include <png.h>
#include <stdio.h>
#include <string.h>

static void copy_message(const png_image *image, const char *fallback, char *message, size_t message_size) {
    if (message == NULL || message_size == 0) return;
    const char *text = (image != NULL && image->message[0] != '\0') ? image->message : fallback;
    snprintf(message, message_size, "%s", text);
}

int crate_png_probe(const unsigned char *data, size_t size, uint32_t *width, uint32_t *height,
                    char *message, size_t message_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        copy_message(&image, "not a PNG", message, message_size);
        png_image_free(&image);
        return -1;
    }
    *width = image.width;
    *height = image.height;
    png_image_free(&image);
    return 0;
}

int crate_png_decode_rgb(const unsigned char *data, size_t size, unsigned char *out, size_t out_size,
                         char *message, size_t message_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        copy_message(&image, "not a PNG", message, message_size);
        png_image_free(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGB;
    if ((size_t)PNG_IMAGE_SIZE(image) > out_size) {
        copy_message(NULL, "the output buffer is too small", message, message_size);
        png_image_free(&image);
        return -1;
    }
    png_color white = {255, 255, 255};
    if (!png_image_finish_read(&image, &white, out, 0, NULL)) {
        copy_message(&image, "damaged PNG", message, message_size);
        png_image_free(&image);
        return -1;
    }
    return 0;
}
