import CGtk
import CrateCore
import Foundation

/// Artwork-derived accent colours (docs/decisions/0002-accent-colours-from-artwork.md) fed to GTK through one runtime CSS provider: the
/// detail pane's tint and play button, and the playback bar's progress gradient.
@MainActor
enum AccentStyle {
    enum Slot { case detail, playing }

    private static var provider: OpaquePointer?
    private static var css: [Slot: String] = [:]
    private static var cache: [String: ArtworkColors] = [:]

    /// Computes (off the main thread, cached by file) and applies the colours of `thumbnailPath`;
    /// nil clears the slot back to the theme's colours.
    static func apply(thumbnailPath: String?, to slot: Slot) {
        guard let path = thumbnailPath else { return set(nil, slot) }
        if let colors = cache[path] { return set(colors, slot) }
        Task {
            let colors = try? await BlockingWork.run {
                ArtworkColors(image: try ImagePreparer().decodeUpright(Data(contentsOf: URL(fileURLWithPath: path))))
            }
            guard let colors else { return }
            cache[path] = colors
            set(colors, slot)
        }
    }

    private static func set(_ colors: ArtworkColors?, _ slot: Slot) {
        if let colors {
            let a = colors.primary.hex, b = colors.secondary.hex
            switch slot {
            case .detail:
                css[slot] = """
                    .detail-pane { background-image: linear-gradient(to bottom, alpha(\(a), 0.28), alpha(\(b), 0.06) 55%, transparent 80%); }
                    .detail-pane button.suggested-action { background-image: none; background-color: \(a); color: \(readable(colors.primary)); }
                    """
            case .playing:
                css[slot] = "progressbar.accent > trough > progress { background-image: linear-gradient(to right, \(a), \(b)); border-color: \(a); }"
            }
        } else {
            css[slot] = nil
        }
        install()
    }

    private static func install() {
        guard let display = gdk_display_get_default() else { return }
        if provider == nil {
            provider = OpaquePointer(gtk_css_provider_new())
            gtk_style_context_add_provider_for_display(display, provider, UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1))
        }
        let text = css.values.sorted().joined(separator: "\n")
        gtk_css_provider_load_from_data(UnsafeMutablePointer(provider), text, -1)
    }

    /// Black or white, whichever reads better on `color`.
    private static func readable(_ color: ArtworkColors.RGB) -> String {
        let luminance = 0.299 * Double(color.r) + 0.587 * Double(color.g) + 0.114 * Double(color.b)
        return luminance > 150 ? "#000000" : "#ffffff"
    }
}
