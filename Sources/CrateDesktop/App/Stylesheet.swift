import CGtk
import CrateCore
import Foundation

/// Loads data/style.css and the app icon's search path for the default display.
enum Stylesheet {
    static func install() {
        guard let display = gdk_display_get_default() else { return }
        if let css = DataFiles.url(for: "style.css") {
            let provider = gtk_css_provider_new()!
            gtk_css_provider_load_from_path(provider, css.path)
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        } else {
            Log.notice("style.css not found; using the default theme")
        }
        followSystemColorScheme()
        if let icons = DataFiles.url(for: "icons") {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons.path)
        }
    }

    /// libadwaita's style manager follows the desktop's light/dark preference by itself.
    /// `CRATE_COLOR_SCHEME=dark|light` overrides it (screenshots, tests).
    private static func followSystemColorScheme() {
        let scheme: AdwColorScheme
        switch ProcessInfo.processInfo.environment["CRATE_COLOR_SCHEME"] {
        case "dark": scheme = ADW_COLOR_SCHEME_FORCE_DARK
        case "light": scheme = ADW_COLOR_SCHEME_FORCE_LIGHT
        default: return
        }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
    }
}
