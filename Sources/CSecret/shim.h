#ifndef CRATE_CSECRET_SHIM_H
#define CRATE_CSECRET_SHIM_H

/// libsecret's headers and pkg-config flags for the keyring plugin (Sources/CSecretPlugin), which
/// is built as its own shared object: no Swift target imports this module.
#include <libsecret/secret.h>

#endif
