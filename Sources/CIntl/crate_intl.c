#include "crate_intl.h"

#include <libintl.h>
#include <locale.h>
#include <stddef.h>

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
