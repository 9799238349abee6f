#ifndef CRATE_INTL_H
#define CRATE_INTL_H

/* gettext for Swift: Glibc's Swift module does not export libintl (it is part of glibc on
   Linux), so these few wrappers do. */

/* Sets LC_MESSAGES and LC_CTYPE from the environment (LANG, LC_*, LANGUAGE), binds `domain` to
   `localedir` with UTF-8 output and returns 0 on success. */
int crate_intl_bind(const char *domain, const char *localedir);

const char *crate_intl_gettext(const char *domain, const char *msgid);
const char *crate_intl_ngettext(const char *domain, const char *singular, const char *plural, unsigned long n);

/* pgettext: the translation of `msgid` in `context` (looked up as "context\004msgid"), or
   `msgid` itself when the catalogue has none. */
const char *crate_intl_pgettext(const char *domain, const char *context, const char *msgid);

#endif
