import CGtk
import CrateCore
import Foundation

/// Loads data/style.css and the app icon's search path for the default display.
enum Stylesheet {
    static func install() {
        guard let display = gdk_display_get_default() else { return }
        if let css = DataFiles.url("style.css") {
            let provider = gtk_css_provider_new()!
            gtk_css_provider_load_from_path(provider, css.path)
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        } else {
            Log.notice("style.css not found; using the default theme")
        }
        followSystemColorScheme()
        if let icons = DataFiles.url("icons") {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons.path)
        }
    }

    /// Plain GTK 4.8 does not follow GNOME's dark style by itself: read the desktop's
    /// `color-scheme` (when that schema is installed) and ask for the dark theme variant.
    /// `CRATE_COLOR_SCHEME=dark|light` overrides it.
    private static func followSystemColorScheme() {
        var scheme = ProcessInfo.processInfo.environment["CRATE_COLOR_SCHEME"]
        if scheme == nil, let source = g_settings_schema_source_get_default(),
           let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", 1) {
            if g_settings_schema_has_key(schema, "color-scheme") != 0 {
                let settings = g_settings_new("org.gnome.desktop.interface")
                if let value = g_settings_get_string(settings, "color-scheme") {
                    scheme = String(cString: value).contains("dark") ? "dark" : "light"
                    g_free(value)
                }
                g_object_unref(UnsafeMutableRawPointer(settings))
            }
            g_settings_schema_unref(schema)
        }
        guard scheme == "dark", let settings = gtk_settings_get_default() else { return }
        crate_object_set_bool(UnsafeMutableRawPointer(settings), "gtk-application-prefer-dark-theme", 1)
    }
}
