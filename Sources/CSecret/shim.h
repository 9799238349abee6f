#ifndef CRATE_CSECRET_SHIM_H
#define CRATE_CSECRET_SHIM_H

#include <libsecret/secret.h>

/// Crate's one schema: a key per provider ("anthropic", "openai", "ollama").
static inline const SecretSchema *crate_secret_schema(void) {
    static const SecretSchema schema = {
        "dev.crate.Crate.ApiKey", SECRET_SCHEMA_NONE,
        { { "provider", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    return &schema;
}

/// True when a Secret Service answers on the session bus (checked without starting one).
static inline gboolean crate_secret_available(void) {
    if (!g_getenv("DBUS_SESSION_BUS_ADDRESS")) return FALSE;
    GError *error = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, &error);
    if (!service) { g_clear_error(&error); return FALSE; }
    g_object_unref(service);
    return TRUE;
}

/// secret_password_store_sync/lookup_sync/clear_sync are variadic: these take the one attribute.
static inline gboolean crate_secret_store(const char *provider, const char *label, const char *key) {
    GError *error = NULL;
    gboolean ok = secret_password_store_sync(crate_secret_schema(), SECRET_COLLECTION_DEFAULT, label, key,
                                             NULL, &error, "provider", provider, NULL);
    g_clear_error(&error);
    return ok;
}

/// The stored key (free with secret_password_free), or NULL.
static inline char *crate_secret_lookup(const char *provider) {
    GError *error = NULL;
    char *key = secret_password_lookup_sync(crate_secret_schema(), NULL, &error, "provider", provider, NULL);
    g_clear_error(&error);
    return key;
}

static inline void crate_secret_clear(const char *provider) {
    GError *error = NULL;
    secret_password_clear_sync(crate_secret_schema(), NULL, &error, "provider", provider, NULL);
    g_clear_error(&error);
}

#endif
