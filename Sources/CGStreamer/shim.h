#ifndef CRATE_CGSTREAMER_SHIM_H
#define CRATE_CGSTREAMER_SHIM_H

/// GStreamer's headers and pkg-config flags for the player's plugin (Sources/CGStreamerPlugin),
/// which is built as its own shared object: no Swift target imports this module.
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>

#endif
