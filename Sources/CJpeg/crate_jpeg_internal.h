#ifndef CRATE_JPEG_INTERNAL_H
#define CRATE_JPEG_INTERNAL_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>
#include "include/crate_jpeg.h"

/// Error manager that longjmps back into the C function that called setjmp (never into Swift).
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    crate_jpeg_status status;
    char message[JMSG_LENGTH_MAX];
} crate_error_mgr;

/// Progress monitor that stops runaway progressive files.
typedef struct {
    struct jpeg_progress_mgr pub;
    int max_scans;
} crate_progress_mgr;

/// Installs the error manager: error_exit and fatal warnings longjmp to `mgr->jump`.
struct jpeg_error_mgr *crate_error_init(crate_error_mgr *mgr);

/// Installs a progress monitor that aborts after CRATE_JPEG_MAX_SCANS scans.
void crate_progress_init(j_decompress_ptr cinfo, crate_progress_mgr *progress);

/// Copies the manager's outcome into the public error struct.
void crate_error_report(const crate_error_mgr *mgr, crate_jpeg_error *error);

/// Sets a status and message without libjpeg involvement.
void crate_error_set(crate_jpeg_error *error, crate_jpeg_status status, const char *message);

/// EXIF orientation (1–8) from the saved APP1 markers, or 1.
int crate_exif_orientation(j_decompress_ptr cinfo);

#endif
