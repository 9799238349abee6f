// libCrateSecret.so: the Secret Service calls (libsecret, and with it GIO and libgcrypt) behind the
// plain C table of crate_plugins.h, so that a CLI command that needs no key does not load them.
#include "crate_plugins.h"
#include <libsecret/secret.h>

/// Crate's one schema: a key per provider ("anthropic", "openai", "ollama").
static const SecretSchema *crate_secret_schema(void) {
    static const SecretSchema schema = {
        "dev.crate.Crate.ApiKey", SECRET_SCHEMA_NONE,
        { { "provider", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    return &schema;
}

/// True when a Secret Service answers on the session bus (checked without starting one).
static int crate_secret_available(void) {
    if (!g_getenv("DBUS_SESSION_BUS_ADDRESS")) return 0;
    GError *error = NULL;
    SecretService *service = secret_service_get_sync(SECRET_SERVICE_NONE, NULL, &error);
    if (!service) { g_clear_error(&error); return 0; }
    g_object_unref(service);
    return 1;
}

/// secret_password_store_sync/lookup_sync are variadic: these take the one attribute.
static int crate_secret_store(const char *provider, const char *label, const char *key) {
    GError *error = NULL;
    gboolean ok = secret_password_store_sync(crate_secret_schema(), SECRET_COLLECTION_DEFAULT, label, key,
                                             NULL, &error, "provider", provider, NULL);
    g_clear_error(&error);
    return ok ? 1 : 0;
}

static char *crate_secret_lookup(const char *provider) {
    GError *error = NULL;
    char *key = secret_password_lookup_sync(crate_secret_schema(), NULL, &error, "provider", provider, NULL);
    g_clear_error(&error);
    return key;
}

static void crate_secret_free(char *key) { secret_password_free(key); }

const crate_secret_table *crate_secret_plugin(void) {
    static const crate_secret_table table = {
        .abi_version = CRATE_PLUGIN_ABI_VERSION,
        .size = sizeof(crate_secret_table),
        .available = crate_secret_available,
        .store = crate_secret_store,
        .lookup = crate_secret_lookup,
        .free_password = crate_secret_free,
    };
    return &table;
}
