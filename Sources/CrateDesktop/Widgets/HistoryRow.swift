import CGtk
import CrateCore
import Foundation

/// One row of the history list: thumbnail, title, artist, scan date; or, for a photo without a
/// scan, its name, the reason in plain words, Retry and Remove.
@MainActor
final class HistoryRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let thumbnail: UnsafeMutablePointer<GtkWidget>
    /// The thumbnail's fixed 48 px square (a wide or tall cover is cropped inside it).
    private let thumbnailFrame: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private let dateLabel: UnsafeMutablePointer<GtkWidget>
    private let dayLabel: UnsafeMutablePointer<GtkWidget>
    private let problemIcon: UnsafeMutablePointer<GtkWidget>
    private let actions: UnsafeMutablePointer<GtkWidget>
    private let retryButton: UnsafeMutablePointer<GtkWidget>
    private var boundPath: String?
    private var onRetry: (() -> Void)?
    private var onRemove: (() -> Void)?
    private var onIdentify: (() -> Void)?
    /// The queue item of the photo shown (for the test events' name of its button).
    private var photoID: Int64?
    /// The scan shown (nil for a photo without a scan): what its context menu acts on.
    private(set) var entry: HistoryEntry?

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter
    }()

    init() {
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["history-row"])
        // The day heading ("Today", "Yesterday", a date) above the first row of each day.
        dayLabel = Gtk.label("", classes: ["heading", "dim-label"])
        gtk_widget_set_margin_top(dayLabel, 12)
        gtk_widget_set_margin_bottom(dayLabel, 6)
        gtk_widget_set_visible(dayLabel, 0)
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(widget, dayLabel)
        Gtk.append(widget, row)
        thumbnail = gtk_picture_new()!
        gtk_picture_set_content_fit(crate_picture(thumbnail), GTK_CONTENT_FIT_COVER)
        gtk_picture_set_can_shrink(crate_picture(thumbnail), 1)
        gtk_widget_set_size_request(thumbnail, 48, 48)
        gtk_widget_add_css_class(thumbnail, "history-thumbnail")
        // The square is the overlay's measured child and the picture an overlay over it: a
        // picture alone asks for its cover's aspect (a 4:1 cover made a 192 px wide thumbnail).
        let square = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        gtk_widget_set_size_request(square, 48, 48)
        thumbnailFrame = gtk_overlay_new()!
        gtk_overlay_set_child(crate_overlay(thumbnailFrame), square)
        gtk_overlay_add_overlay(crate_overlay(thumbnailFrame), thumbnail)
        gtk_widget_set_valign(thumbnailFrame, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(thumbnailFrame, GTK_ALIGN_START)
        gtk_widget_set_overflow(thumbnailFrame, GTK_OVERFLOW_HIDDEN)
        let text = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 2)
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        titleLabel = Gtk.label("", classes: ["heading"])
        artistLabel = Gtk.label("", classes: ["dim-label"])
        for label in [titleLabel, artistLabel] {
            gtk_label_set_ellipsize(crate_label(label), PANGO_ELLIPSIZE_END)
        }
        dateLabel = Gtk.label("", classes: ["dim-label", "caption"], xalign: 1)
        gtk_widget_set_valign(dateLabel, GTK_ALIGN_CENTER)
        Gtk.append(text, titleLabel)
        Gtk.append(text, artistLabel)
        problemIcon = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_image_set_pixel_size(crate_image(problemIcon), 24)
        gtk_widget_set_size_request(problemIcon, 48, 48)
        gtk_widget_add_css_class(problemIcon, "history-problem-icon")
        retryButton = gtk_button_new_with_mnemonic(L10n.tr("_Retry"))!
        let identify = gtk_button_new_from_icon_name("document-edit-symbolic")!
        Gtk.setTooltip(identify, L10n.tr("Tell Crate what it is"))
        Gtk.setAccessibleLabel(identify, L10n.tr("Tell Crate what it is"))
        let remove = gtk_button_new_from_icon_name("user-trash-symbolic")!
        Gtk.setTooltip(remove, L10n.tr("Remove this photo from History"))
        Gtk.setAccessibleLabel(remove, L10n.tr("Remove"))
        actions = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        gtk_widget_set_valign(actions, GTK_ALIGN_CENTER)
        Gtk.append(actions, retryButton)
        Gtk.append(actions, identify)
        Gtk.append(actions, remove)
        let scope = GObjectScope.of(widget)
        scope.connect(retryButton, "clicked") { [weak self] in self?.onRetry?() }
        scope.connect(remove, "clicked") { [weak self] in self?.onRemove?() }
        scope.connect(identify, "clicked") { [weak self] in self?.onIdentify?() }
        scope.connect(identify, "map") { [weak self] in
            guard WidgetEvents.isObserved, let id = self?.photoID, let root = gtk_widget_get_root(identify) else { return }
            WidgetEvents.place("history-identify-\(id)", of: identify, in: UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self))
        }
        Gtk.append(row, thumbnailFrame)
        Gtk.append(row, problemIcon)
        Gtk.append(row, text)
        Gtk.append(row, dateLabel)
        Gtk.append(row, actions)
        setProblem(false)
    }

    /// A photo without a scan: its name, why, and what to do.
    func show(_ photo: UnscannedPhoto, onRetry: @escaping () -> Void, onRemove: @escaping () -> Void, onIdentify: @escaping () -> Void) {
        entry = nil
        setProblem(true)
        boundPath = nil
        self.onRetry = onRetry
        self.onRemove = onRemove
        self.onIdentify = onIdentify
        photoID = photo.id
        Gtk.setText(titleLabel, photo.name)
        // The status leads the reason, both wrapped in full: a reason cut to "This fil…" (and
        // a name to "not-…") at 360 px told nobody anything.
        let status = photo.waits ? L10n.tr("Waiting") : L10n.tr("Not scanned")
        Gtk.setText(artistLabel, L10n.tr("%@ — %@", status, photo.reason))
        Gtk.setTooltip(artistLabel, photo.reason)
        Gtk.setText(dateLabel, status)
        gtk_button_set_label(crate_button(retryButton), photo.waits ? L10n.tr("Try _Now") : L10n.tr("_Retry"))
        gtk_button_set_use_underline(crate_button(retryButton), 1)
        Gtk.setAccessibleLabel(widget, L10n.tr("%@, not scanned: %@", photo.name, photo.reason))
    }

    /// True when the row shows a photo without a scan and its name or reason is cut short
    /// (test events: at 360 px they must wrap, not end in "…").
    var isProblemTextCut: Bool {
        guard gtk_widget_get_visible(problemIcon) != 0 else { return false }
        let labels: [UnsafeMutablePointer<GtkWidget>] = [titleLabel, artistLabel]
        return labels.contains { label in pango_layout_is_ellipsized(gtk_label_get_layout(crate_label(label))) != 0 }
    }

    /// The laid-out thumbnail (width, height); nil when hidden or not laid out (test events).
    var thumbnailSize: (width: Int32, height: Int32)? {
        guard gtk_widget_get_mapped(thumbnailFrame) != 0, gtk_widget_get_width(thumbnailFrame) > 0 else { return nil }
        return (gtk_widget_get_width(thumbnailFrame), gtk_widget_get_height(thumbnailFrame))
    }

    private func setProblem(_ problem: Bool) {
        gtk_widget_set_visible(thumbnailFrame, problem ? 0 : 1)
        gtk_widget_set_visible(problemIcon, problem ? 1 : 0)
        gtk_widget_set_visible(actions, problem ? 1 : 0)
        gtk_widget_set_visible(dateLabel, problem ? 0 : 1)
        for label in [titleLabel, artistLabel] {
            gtk_label_set_ellipsize(crate_label(label), problem ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END)
            gtk_label_set_wrap(crate_label(label), problem ? 1 : 0)
            gtk_label_set_wrap_mode(crate_label(label), PANGO_WRAP_WORD_CHAR)
        }
        if problem { gtk_widget_add_css_class(widget, "history-problem") } else { gtk_widget_remove_css_class(widget, "history-problem") }
        if !problem {
            onRetry = nil
            onRemove = nil
            onIdentify = nil
            Gtk.setTooltip(artistLabel, nil)
        }
    }

    /// Shows an entry. Every string is set as plain text: album titles come from the network.
    /// Shows `heading` above the row (the first scan of a day), or no heading.
    func setDayHeading(_ heading: String?) {
        Gtk.setText(dayLabel, heading ?? "")
        gtk_widget_set_visible(dayLabel, heading == nil ? 0 : 1)
    }

    func show(_ entry: HistoryEntry) {
        self.entry = entry
        setProblem(false)
        Gtk.setText(titleLabel, entry.album.title)
        Gtk.setText(artistLabel, entry.album.artist)
        Gtk.setText(dateLabel, Self.dateFormatter.string(from: entry.scan.scannedAt))
        Gtk.setAccessibleLabel(widget, L10n.tr("%@ by %@, scanned %@", entry.album.title, entry.album.artist, Self.dateFormatter.string(from: entry.scan.scannedAt)))
        // Loaded off the main thread through the shared, bounded cache.
        gtk_picture_set_paintable(crate_picture(thumbnail), nil)
        gtk_widget_add_css_class(thumbnail, "artwork-missing")
        boundPath = entry.album.thumbnailURL(in: TextureCache.artworkDirectory)?.path
        guard let path = boundPath else { return }
        TextureCache.thumbnails.texture(for: path) { [weak self] texture in
            guard let self, self.boundPath == path, let texture else { return }
            gtk_picture_set_paintable(crate_picture(self.thumbnail), crate_paintable(UnsafeMutableRawPointer(texture)))
            gtk_widget_remove_css_class(self.thumbnail, "artwork-missing")
        }
    }
}
