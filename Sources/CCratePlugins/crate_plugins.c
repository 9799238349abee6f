/* Header-only: the function tables in include/crate_plugins.h. */
