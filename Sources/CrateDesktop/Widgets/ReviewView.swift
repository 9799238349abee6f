import CGtk
import CrateCore
import Foundation

/// The Review tab: summary, evidence bullets, key tracks, date and Regenerate (the rating is on
/// the artwork's band); or the
/// "Review Temporarily Unavailable" state with its tip and Retry.
@MainActor
final class ReviewView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let summary: UnsafeMutablePointer<GtkWidget>
    private let bullets: UnsafeMutablePointer<GtkWidget>
    private let rating: UnsafeMutablePointer<GtkWidget>
    private let keyTracks: UnsafeMutablePointer<GtkWidget>
    private let footer: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let statusDetail: UnsafeMutablePointer<GtkWidget>
    private let button: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    var onRegenerate: (() -> Void)?

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        return formatter
    }()

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 10, classes: ["review"])
        status = Gtk.label("", classes: ["title-4"])
        statusDetail = Gtk.label("", classes: ["dim-label"])
        // The summary and bullets are read-only text views: GTK 4.8 under-measured the height of
        // long wrapped labels in this scrolled pane, and the bullets overlapped what followed.
        summary = Self.textView(classes: ["review-summary"])
        bullets = Self.textView(classes: ["review-bullets"])
        rating = Gtk.label("", classes: ["heading"])
        keyTracks = Self.textView(classes: ["review-bullets"])
        footer = Gtk.label("", classes: ["dim-label", "caption"])
        for label in [status, statusDetail, rating, footer] {
            Gtk.wrap(label)
        }
        spinner = gtk_spinner_new()!
        button = gtk_button_new_with_label(L10n.tr("Regenerate"))!
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        GObjectScope.of(widget).connect(button, "clicked") { [weak self] in self?.onRegenerate?() }
        for child in [status, statusDetail, spinner, summary, bullets, rating, keyTracks, footer, button] {
            Gtk.append(widget, child)
        }
    }

    func show(_ review: AlbumDetailState.ReviewStatus, canGenerate: Bool) {
        hideAll()
        switch review {
        case .available(let review):
            Self.setText(summary, review.summary)
            Self.setText(bullets, review.bullets.map { "•  " + $0 }.joined(separator: "\n"))
            gtk_widget_set_visible(summary, 1)
            gtk_widget_set_visible(bullets, 1)
            // The rating and recommendation are on the artwork's band: said once.
            Self.setText(keyTracks, "Key tracks: " + review.keyTracks.joined(separator: ", "))
            gtk_widget_set_visible(keyTracks, 1)
            Gtk.setText(footer, L10n.tr("Generated %@ · %@%@", Self.dateFormatter.string(from: review.generatedAt), review.model, review.usedSearch ? L10n.tr(" · with web search") : ""))
            gtk_widget_set_visible(footer, 1)
            showButton("Regenerate", enabled: canGenerate)
            remeasureTextViews()
        case .loading:
            gtk_widget_set_visible(spinner, 1)
            Gtk.spin(spinner, true)
            Gtk.setText(status, L10n.tr("Writing a review that's somehow both pretentious and correct…"))
            gtk_widget_set_visible(status, 1)
        case .unavailable(let message):
            Gtk.setText(status, ReviewFailureText.title)
            Gtk.setText(statusDetail, message)
            gtk_widget_set_visible(status, 1)
            gtk_widget_set_visible(statusDetail, 1)
            showButton("Retry", enabled: canGenerate)
        case .none:
            Gtk.setText(status, L10n.tr("No review yet"))
            Gtk.setText(statusDetail, canGenerate
                ? "Generate an honest, music-first review of this album."
                : "Set up a review provider in Preferences to get reviews.")
            gtk_widget_set_visible(status, 1)
            gtk_widget_set_visible(statusDetail, 1)
            showButton("Generate Review", enabled: canGenerate)
        }
    }

    /// A text view lays its lines out in idle time after it is given its width: measured at once
    /// it asks for less height than its text takes, and the third line of a summary or the last
    /// bullet was cut until the pane was scrolled. It is measured again over the next frames.
    private func remeasureTextViews() {
        var frames = 0
        GObjectScope.of(widget).every(milliseconds: 60) { [weak self] in
            guard let self else { return false }
            for view in [self.summary, self.bullets, self.keyTracks] { gtk_widget_queue_resize(view) }
            frames += 1
            return frames < 8
        }
    }

    /// How many of the text views are shorter than their laid-out text (test events).
    func clippedTextViews() -> Int {
        [summary, bullets, keyTracks].filter { view in
            guard gtk_widget_get_visible(view) != 0, gtk_widget_get_mapped(view) != 0 else { return false }
            let text = crate_text_view(view)
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(gtk_text_view_get_buffer(text), &end)
            var y: Int32 = 0, height: Int32 = 0
            gtk_text_view_get_line_yrange(text, &end, &y, &height)
            return gtk_widget_get_height(view) + 1 < y + height
        }.count
    }

    private func hideAll() {
        for child in [status, statusDetail, spinner, summary, bullets, rating, keyTracks, footer, button] {
            gtk_widget_set_visible(child, 0)
        }
        Gtk.spin(spinner, false)
    }

    private func showButton(_ title: String, enabled: Bool) {
        gtk_button_set_label(crate_button(button), title)
        gtk_widget_set_sensitive(button, enabled ? 1 : 0)
        gtk_widget_set_visible(button, 1)
    }

    private static func textView(classes: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let view = gtk_text_view_new()!
        let text = crate_text_view(view)
        gtk_text_view_set_editable(text, 0)
        gtk_text_view_set_cursor_visible(text, 0)
        gtk_text_view_set_wrap_mode(text, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_pixels_below_lines(text, 6)
        for name in classes { gtk_widget_add_css_class(view, name) }
        return view
    }

    /// Plain text only: reviews come from the network and are never markup.
    private static func setText(_ view: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(crate_text_view(view)), text, -1)
    }
}
