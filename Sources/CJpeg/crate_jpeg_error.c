#include <string.h>
#include "crate_jpeg_internal.h"
#include <jerror.h>

static void crate_error_exit(j_common_ptr cinfo) {
    crate_error_mgr *mgr = (crate_error_mgr *)cinfo->err;
    if (mgr->status == CRATE_JPEG_OK) {
        switch (mgr->pub.msg_code) {
        case JERR_NO_SOI:
            mgr->status = CRATE_JPEG_NOT_JPEG;
            break;
        case JERR_OUT_OF_MEMORY:
            mgr->status = CRATE_JPEG_NO_MEMORY;
            break;
        case JERR_BAD_PRECISION:
        case JERR_CONVERSION_NOTIMPL:
        case JERR_NOT_COMPILED:
            mgr->status = CRATE_JPEG_UNSUPPORTED;
            break;
        default:
            mgr->status = CRATE_JPEG_CORRUPT;
            break;
        }
    }
    (*cinfo->err->format_message)(cinfo, mgr->message);
    longjmp(mgr->jump, 1);
}

/// Warnings signal damaged data (truncation, corrupt entropy codes). libjpeg would paint grey
/// and carry on; a half-grey cover would poison hashes and the vision call, so we stop instead.
/// Extraneous bytes between header markers are common in camera files and harmless, so they stay
/// warnings; before EOI or a restart marker they mean the scan data was damaged.
static void crate_emit_message(j_common_ptr cinfo, int msg_level) {
    crate_error_mgr *mgr = (crate_error_mgr *)cinfo->err;
    if (msg_level >= 0) return;  // Trace messages: ignore.
    int marker = mgr->pub.msg_parm.i[1];
    int in_scan_data = marker == 0xD9 || (marker >= 0xD0 && marker <= 0xD7);
    if (mgr->pub.msg_code == JWRN_EXTRANEOUS_DATA && !in_scan_data) {
        mgr->pub.num_warnings++;
        return;
    }
    mgr->status = CRATE_JPEG_CORRUPT;
    crate_error_exit(cinfo);
}

static void crate_output_message(j_common_ptr cinfo) {
    (void)cinfo;  // Never print to stderr from a library.
}

struct jpeg_error_mgr *crate_error_init(crate_error_mgr *mgr) {
    memset(mgr, 0, sizeof(*mgr));
    jpeg_std_error(&mgr->pub);
    mgr->pub.error_exit = crate_error_exit;
    mgr->pub.emit_message = crate_emit_message;
    mgr->pub.output_message = crate_output_message;
    mgr->status = CRATE_JPEG_OK;
    return &mgr->pub;
}

static void crate_progress(j_common_ptr cinfo) {
    crate_progress_mgr *progress = (crate_progress_mgr *)cinfo->progress;
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > progress->max_scans) {
        crate_error_mgr *mgr = (crate_error_mgr *)cinfo->err;
        mgr->status = CRATE_JPEG_TOO_MANY_SCANS;
        snprintf(mgr->message, sizeof(mgr->message), "more than %d progressive scans", progress->max_scans);
        longjmp(mgr->jump, 1);
    }
}

void crate_progress_init(j_decompress_ptr cinfo, crate_progress_mgr *progress) {
    memset(progress, 0, sizeof(*progress));
    progress->pub.progress_monitor = crate_progress;
    progress->max_scans = CRATE_JPEG_MAX_SCANS;
    cinfo->progress = &progress->pub;
}

void crate_error_report(const crate_error_mgr *mgr, crate_jpeg_error *error) {
    if (!error) return;
    error->status = mgr->status == CRATE_JPEG_OK ? CRATE_JPEG_CORRUPT : mgr->status;
    snprintf(error->message, sizeof(error->message), "%s", mgr->message);
}

void crate_error_set(crate_jpeg_error *error, crate_jpeg_status status, const char *message) {
    if (!error) return;
    error->status = status;
    snprintf(error->message, sizeof(error->message), "%s", message ? message : "");
}
