#ifndef CRATE_CCURL_SHIM_H
#define CRATE_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, and Swift cannot call C variadic functions.
// Each wrapper below fixes the type of the one variadic argument, so the value reaches libcurl
// with exactly the C type the option expects (passing an Int where libcurl reads a long or a
// curl_off_t is undefined behaviour on some ABIs).

/// For CURLOPTTYPE_LONG options (timeouts, flags, limits): libcurl reads a C `long`.
static inline CURLcode crate_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPTTYPE_STRINGPOINT options (URL, protocols, encodings): libcurl copies the string.
static inline CURLcode crate_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPTTYPE_OBJECTPOINT / CBPOINT options (user data, header lists): a raw pointer.
static inline CURLcode crate_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPTTYPE_OFF_T options (body sizes): libcurl reads a 64-bit `curl_off_t`, not a long.
static inline CURLcode crate_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION: both take a `curl_write_callback`.
static inline CURLcode crate_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// For CURLOPT_XFERINFOFUNCTION: the progress callback Crate uses to cancel a transfer.
static inline CURLcode crate_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// For CURLINFO_LONG values (response code, redirect count): libcurl writes through a `long *`.
static inline CURLcode crate_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// For CURLINFO_STRING values (effective URL, redirect URL): libcurl writes a `char *` it owns.
static inline CURLcode crate_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// For CURLINFO_OFF_T values (download size): libcurl writes through a `curl_off_t *`.
static inline CURLcode crate_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// CURL_GLOBAL_DEFAULT is a macro built from other macros, which Swift does not import.
static inline CURLcode crate_curl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

#endif
