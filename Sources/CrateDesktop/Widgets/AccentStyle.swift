import CGtk
import CrateCore
import Foundation

/// Artwork-derived accent colours (docs/decisions/0002-accent-colours-from-artwork.md) fed to GTK through one runtime CSS provider: the
/// detail pane's tint and play button, and the playback bar's progress gradient.
@MainActor
enum AccentStyle {
    /// `detail(n)`: the album pane whose CSS class is `detailClass(n)` (each pane has its own
    /// colours); `playing`: the playback bar.
    enum Slot: Hashable { case detail(Int), playing }

    private static var provider: OpaquePointer?
    private static var css: [Slot: String] = [:]
    private static var cache: [String: ArtworkColors] = [:]
    /// The artwork each slot shows now: colours computed for an older one are dropped.
    private static var wanted: [Slot: String] = [:]
    private static var panes = 0

    /// A new album pane's slot and the CSS class that scopes its colours.
    static func newDetailSlot() -> (slot: Slot, cssClass: String) {
        panes += 1
        return (.detail(panes), detailClass(panes))
    }

    static func detailClass(_ pane: Int) -> String { "detail-pane-\(pane)" }

    /// Applies the colours of `thumbnailPath` (computed off the main thread, cached by file);
    /// nil clears the slot back to the theme's colours. Until a new cover's colours are known
    /// the slot has the theme's: the last album's colours never tint the next one.
    static func apply(thumbnailPath: String?, to slot: Slot) {
        wanted[slot] = thumbnailPath
        guard let path = thumbnailPath else { return set(nil, slot) }
        if let colors = cache[path] { return set(colors, slot) }
        set(nil, slot)
        Task {
            let colors = try? await BlockingWork.run {
                ArtworkColors(image: try ImagePreparer().decodeUpright(Data(contentsOf: URL(fileURLWithPath: path))))
            }
            guard let colors else { return }
            cache[path] = colors
            guard wanted[slot] == path else { return }
            set(colors, slot)
        }
    }

    private static func set(_ colors: ArtworkColors?, _ slot: Slot) {
        if WidgetEvents.isObserved {
            let name: String
            switch slot {
            case .detail(let pane): name = detailClass(pane)
            case .playing: name = "playing"
            }
            WidgetEvents.say("accent \(name) \(colors?.primary.hex ?? "none")")
        }
        if let colors {
            let a = colors.primary.hex, b = colors.secondary.hex
            switch slot {
            case .detail(let pane):
                let pane = detailClass(pane)
                css[slot] = """
                    .\(pane) { background-image: linear-gradient(to bottom, alpha(\(a), 0.28), alpha(\(b), 0.06) 55%, transparent 80%); }
                    .\(pane) button.suggested-action { background-image: none; background-color: \(a); color: \(readable(colors.primary)); }
                    """
            case .playing:
                css[slot] = "progressbar.accent > trough > progress { background-image: linear-gradient(to right, \(a), \(b)); border-color: \(a); }"
            }
        } else {
            guard css[slot] != nil else { return }
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
