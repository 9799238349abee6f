import CGtk
import CrateCore
import Foundation

/// The Review tab: summary, evidence bullets, rating, key tracks, date and Regenerate; or the
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
        summary = Gtk.label("", classes: ["review-summary"])
        bullets = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        rating = Gtk.label("", classes: ["heading"])
        keyTracks = Gtk.label("")
        footer = Gtk.label("", classes: ["dim-label", "caption"])
        for label in [status, statusDetail, summary, keyTracks] {
            gtk_label_set_wrap(crate_label(label), 1)
        }
        spinner = gtk_spinner_new()!
        button = gtk_button_new_with_label("Regenerate")!
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        GSignal.connect(button, "clicked") { [weak self] in self?.onRegenerate?() }
        for child in [status, statusDetail, spinner, summary, bullets, rating, keyTracks, footer, button] {
            Gtk.append(widget, child)
        }
    }

    func show(_ review: AlbumDetailState.ReviewStatus, canGenerate: Bool) {
        hideAll()
        switch review {
        case .available(let review):
            Gtk.setText(summary, review.summary)
            gtk_widget_set_visible(summary, 1)
            fillBullets(review.bullets)
            Gtk.setText(rating, String(format: "Rating: %.1f / 10 · %@", review.rating, review.recommendation))
            gtk_widget_set_visible(rating, 1)
            Gtk.setText(keyTracks, "Key tracks: " + review.keyTracks.joined(separator: ", "))
            gtk_widget_set_visible(keyTracks, 1)
            Gtk.setText(footer, "Generated \(Self.dateFormatter.string(from: review.generatedAt)) · \(review.model)\(review.usedSearch ? " · with web search" : "")")
            gtk_widget_set_visible(footer, 1)
            showButton("Regenerate", enabled: canGenerate)
        case .loading:
            gtk_widget_set_visible(spinner, 1)
            gtk_spinner_start(OpaquePointer(spinner))
            Gtk.setText(status, "Writing a review that's somehow both pretentious and correct…")
            gtk_widget_set_visible(status, 1)
        case .unavailable(let message):
            Gtk.setText(status, ReviewFailureText.title)
            Gtk.setText(statusDetail, message)
            gtk_widget_set_visible(status, 1)
            gtk_widget_set_visible(statusDetail, 1)
            showButton("Retry", enabled: canGenerate)
        case .none:
            Gtk.setText(status, "No review yet")
            Gtk.setText(statusDetail, canGenerate
                ? "Generate an honest, music-first review of this album."
                : "Set up a review provider in Preferences to get reviews.")
            gtk_widget_set_visible(status, 1)
            gtk_widget_set_visible(statusDetail, 1)
            showButton("Generate Review", enabled: canGenerate)
        }
    }

    private func hideAll() {
        for child in [status, statusDetail, spinner, summary, bullets, rating, keyTracks, footer, button] {
            gtk_widget_set_visible(child, 0)
        }
        gtk_spinner_stop(OpaquePointer(spinner))
    }

    private func showButton(_ title: String, enabled: Bool) {
        gtk_button_set_label(crate_button(button), title)
        gtk_widget_set_sensitive(button, enabled ? 1 : 0)
        gtk_widget_set_visible(button, 1)
    }

    private func fillBullets(_ items: [String]) {
        while let child = gtk_widget_get_first_child(bullets) {
            gtk_box_remove(crate_box(bullets), child)
        }
        for item in items {
            let label = Gtk.label("•  " + item, classes: ["review-bullet"])
            gtk_label_set_wrap(crate_label(label), 1)
            Gtk.append(bullets, label)
        }
        gtk_widget_set_visible(bullets, 1)
    }
}
