import CGtk
import CrateCore
import Foundation

/// The card shown while a scan runs: spinner (or the found album's artwork), the seed's
/// progress messages with an animated ellipsis, "Scanning 2 of 5", and Cancel (Esc).
@MainActor
final class ScanProgressView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let artwork: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let count: UnsafeMutablePointer<GtkWidget>
    private var baseText = ""
    private var dots = 0
    /// Animates the ellipsis while a scan runs; removed with the widget if the window closes.
    private var tick: GObjectScope.Source?
    var onCancel: (() -> Void)?

    init() {
        // A scrim over the window with the card centred on it.
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["scan-scrim"])
        let card = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 14, classes: ["scan-progress"])
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(card, 1)
        Gtk.append(widget, card)
        spinner = gtk_spinner_new()!
        gtk_widget_set_size_request(spinner, 48, 48)
        artwork = gtk_picture_new()!
        gtk_widget_set_size_request(artwork, 200, 200)
        gtk_picture_set_content_fit(crate_picture(artwork), GTK_CONTENT_FIT_COVER)
        message = Gtk.label("", classes: ["title-4"], xalign: 0.5)
        gtk_label_set_wrap(crate_label(message), 1)
        gtk_label_set_max_width_chars(crate_label(message), 40)
        gtk_label_set_width_chars(crate_label(message), 40)
        count = Gtk.label("", classes: ["dim-label"], xalign: 0.5)
        let cancel = gtk_button_new_with_mnemonic("_Cancel")!
        gtk_widget_set_tooltip_text(cancel, "Cancel the scan (Esc)")
        gtk_widget_set_halign(cancel, GTK_ALIGN_CENTER)
        GObjectScope.of(widget).connect(cancel, "clicked") { [weak self] in self?.onCancel?() }
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(artwork, GTK_ALIGN_CENTER)
        for child in [spinner, artwork, message, count, cancel] { Gtk.append(card, child) }
        gtk_widget_set_visible(widget, 0)
    }

    func render(_ state: ScanState) {
        guard state.isBusy else {
            stopTicking()
            gtk_widget_set_visible(widget, 0)
            return
        }
        gtk_widget_set_visible(widget, 1)
        Gtk.setText(count, state.countText ?? "")
        gtk_widget_set_visible(count, state.countText == nil ? 0 : 1)
        var album: Album?
        switch state.phase {
        case .identified(let found), .loadingReview(let found): album = found
        default: album = nil
        }
        showArtwork(of: album)
        // The ellipsis is animated: the message's own "…" is replaced by 1–3 dots.
        baseText = state.message.hasSuffix("…") ? String(state.message.dropLast()) : state.message
        Gtk.setAccessibleLabel(widget, state.message)
        renderMessage()
        startTicking()
    }

    private func showArtwork(of album: Album?) {
        let directory = TextureCache.artworkDirectory
        if let album, album.artworkStatus == .available,
           let path = (album.thumbnailURL(in: directory) ?? album.artworkURL(in: directory))?.path {
            gtk_widget_set_visible(spinner, 0)
            gtk_spinner_stop(OpaquePointer(spinner))
            TextureCache.artwork.texture(for: path) { [weak self] texture in
                guard let self, let texture else { return }
                gtk_picture_set_paintable(crate_picture(self.artwork), crate_paintable(UnsafeMutableRawPointer(texture)))
                gtk_widget_set_visible(self.artwork, 1)
            }
        } else {
            gtk_picture_set_paintable(crate_picture(artwork), nil)
            gtk_widget_set_visible(artwork, 0)
            gtk_widget_set_visible(spinner, 1)
            gtk_spinner_start(OpaquePointer(spinner))
        }
    }

    private func renderMessage() {
        let animated = baseText.hasPrefix("We found") ? baseText : baseText + String(repeating: ".", count: dots + 1)
        Gtk.setText(message, animated)
    }

    private func startTicking() {
        guard tick == nil else { return }
        tick = GObjectScope.of(widget).every(milliseconds: 400) { [weak self] in
            guard let self else { return false }
            self.dots = (self.dots + 1) % 3
            self.renderMessage()
            return true
        }
    }

    private func stopTicking() {
        GObjectScope.of(widget).remove(tick)
        tick = nil
    }
}
