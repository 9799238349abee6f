#include "crate_intl.h"

#include <libintl.h>
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int crate_intl_bind(const char *domain, const char *localedir) {
    /* Only the categories translations need: numbers keep the C locale's formatting, so
       nothing parsed or printed by C code (SQLite, JSON) changes with the user's locale. */
    setlocale(LC_MESSAGES, "");
    setlocale(LC_CTYPE, "");
    if (bindtextdomain(domain, localedir) == NULL) return -1;
    if (bind_textdomain_codeset(domain, "UTF-8") == NULL) return -1;
    return 0;
}

const char *crate_intl_gettext(const char *domain, const char *msgid) {
    return dgettext(domain, msgid);
}

const char *crate_intl_ngettext(const char *domain, const char *singular, const char *plural, unsigned long n) {
    return dngettext(domain, singular, plural, n);
}

const char *crate_intl_pgettext(const char *domain, const char *context, const char *msgid) {
    size_t context_length = strlen(context), id_length = strlen(msgid);
    char stack[512];
    char *key = context_length + id_length + 2 <= sizeof stack ? stack : malloc(context_length + id_length + 2);
    if (key == NULL) return msgid;
    memcpy(key, context, context_length);
    key[context_length] = '\004';
    memcpy(key + context_length + 1, msgid, id_length + 1);
    const char *found = dgettext(domain, key);
    /* Without a translation gettext hands back its argument (our buffer): the msgid then. */
    const char *result = found == key ? msgid : found;
    if (key != stack) free(key);
    return result;
}
