import CGtk
import CrateCore
import Foundation

/// The card shown while a scan runs: the photo's name, a spinner (or the found album's
/// artwork), the seed's progress messages with an animated ellipsis, "Scanning 2 of 5", and
/// Cancel (Esc).
///
/// The card has one fixed size whatever it shows (spinner or artwork, a short or a three-line
/// message), and fits a 360 px window. The artwork always belongs to the photo being scanned:
/// a picture that finishes loading after its scan ended is dropped.
@MainActor
final class ScanProgressView {
    /// The card's fixed size; with the scrim's margins it fits a 360 px wide window.
    static let cardWidth: Int32 = 296
    static let cardHeight: Int32 = 392
    static let artworkSize: Int32 = 160

    let widget: UnsafeMutablePointer<GtkWidget>
    let card: UnsafeMutablePointer<GtkWidget>
    private let visual: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let artwork: UnsafeMutablePointer<GtkWidget>
    private let photoName: UnsafeMutablePointer<GtkWidget>
    private let message: UnsafeMutablePointer<GtkWidget>
    private let count: UnsafeMutablePointer<GtkWidget>
    private var baseText = ""
    private var dots = 0
    /// The artwork file the card should show now; a load for any other path is ignored.
    private(set) var shownArtworkPath: String?
    /// Animates the ellipsis while a scan runs; removed with the widget if the window closes.
    private var tick: GObjectScope.Source?
    var onCancel: (() -> Void)?

    init() {
        // A scrim over the window with the card centred on it.
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0, classes: ["scan-scrim"])
        card = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 10, classes: ["scan-progress"])
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_vexpand(card, 1)
        gtk_widget_set_size_request(card, Self.cardWidth, Self.cardHeight)
        Gtk.append(widget, card)

        photoName = Gtk.label("", classes: ["dim-label", "caption"], xalign: 0.5)
        gtk_label_set_ellipsize(crate_label(photoName), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(crate_label(photoName), 1)
        gtk_widget_set_hexpand(photoName, 1)

        // Spinner and artwork share one square of a fixed size, so the card never jumps.
        visual = gtk_stack_new()!
        gtk_widget_set_size_request(visual, Self.artworkSize, Self.artworkSize)
        gtk_widget_set_halign(visual, GTK_ALIGN_CENTER)
        spinner = gtk_spinner_new()!
        gtk_widget_set_size_request(spinner, 48, 48)
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        Gtk.spin(spinner, true)
        artwork = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(artwork), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(crate_picture(artwork), 1)
        gtk_widget_add_css_class(artwork, "scan-progress-artwork")
        gtk_stack_add_named(crate_stack(visual), spinner, "spinner")
        gtk_stack_add_named(crate_stack(visual), artwork, "artwork")
        gtk_stack_set_transition_type(crate_stack(visual), GTK_STACK_TRANSITION_TYPE_CROSSFADE)

        // Up to three lines, always three lines tall.
        message = Gtk.label("", classes: ["title-4"], xalign: 0.5)
        gtk_label_set_wrap(crate_label(message), 1)
        gtk_label_set_justify(crate_label(message), GTK_JUSTIFY_CENTER)
        gtk_label_set_lines(crate_label(message), 3)
        gtk_label_set_ellipsize(crate_label(message), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(crate_label(message), 1)
        gtk_widget_set_hexpand(message, 1)
        gtk_widget_set_vexpand(message, 1)
        gtk_widget_set_valign(message, GTK_ALIGN_CENTER)

        count = Gtk.label("", classes: ["dim-label"], xalign: 0.5)
        let cancel = gtk_button_new_with_mnemonic(L10n.tr("_Cancel"))!
        Gtk.setTooltip(cancel, L10n.tr("Cancel the scan (Esc)"))
        gtk_widget_set_halign(cancel, GTK_ALIGN_CENTER)
        GObjectScope.of(widget).connect(cancel, "clicked") { [weak self] in self?.onCancel?() }
        for child in [photoName, visual, message, count, cancel] { Gtk.append(card, child) }
        gtk_widget_set_visible(widget, 0)
    }

    func render(_ state: ScanState) {
        guard state.isBusy else {
            stopTicking()
            showArtwork(of: nil)
            gtk_widget_set_visible(widget, 0)
            return
        }
        gtk_widget_set_visible(widget, 1)
        Gtk.setText(photoName, state.file?.lastPathComponent ?? "")
        // Kept in the layout when empty, so the card keeps its size.
        Gtk.setText(count, state.countText ?? " ")
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

    /// The album found for THIS photo, or the spinner. A texture that arrives for a path the
    /// card no longer shows (the scan moved on to the next photo) is dropped.
    private func showArtwork(of album: Album?) {
        let directory = TextureCache.artworkDirectory
        let path = album.flatMap { album -> String? in
            guard album.artworkStatus == .available else { return nil }
            return (album.thumbnailURL(in: directory) ?? album.artworkURL(in: directory))?.path
        }
        guard path != shownArtworkPath else { return }
        shownArtworkPath = path
        gtk_picture_set_paintable(crate_picture(artwork), nil)
        gtk_stack_set_visible_child_name(crate_stack(visual), "spinner")
        guard let path else { return }
        TextureCache.artwork.texture(for: path) { [weak self] texture in
            guard let self, self.shownArtworkPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.artwork), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_stack_set_visible_child_name(crate_stack(self.visual), "artwork")
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
