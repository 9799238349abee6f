import CGtk
import CrateCore

/// The detail pane: artwork with badge, artist, title, "Released · Genre · Label", then a
/// Tracks | Review switcher. Bound to an AlbumDetailStore.
@MainActor
final class AlbumDetailPane {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let artwork = ArtworkView()
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let subtitleLabel: UnsafeMutablePointer<GtkWidget>
    private let tracks = TrackListView()
    private let review = ReviewView()
    private let store: AlbumDetailStore
    private var tokens: [ObservationToken] = []

    init(store: AlbumDetailStore) {
        self.store = store
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8, classes: ["detail-pane"])
        artistLabel = Gtk.label("", classes: ["title-3", "detail-artist"], xalign: 0.5)
        titleLabel = Gtk.label("", classes: ["title-1", "detail-title"], xalign: 0.5)
        subtitleLabel = Gtk.label("", classes: ["dim-label"], xalign: 0.5)
        for label in [artistLabel, titleLabel, subtitleLabel] {
            gtk_label_set_wrap(crate_label(label), 1)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
        }
        let stack = gtk_stack_new()!
        gtk_stack_add_titled(crate_stack(stack), tracks.widget, "tracks", "Tracks")
        gtk_stack_add_titled(crate_stack(stack), review.widget, "review", "Review")
        let switcher = gtk_stack_switcher_new()!
        gtk_stack_switcher_set_stack(crate_stack_switcher(switcher), crate_stack(stack))
        gtk_widget_set_halign(switcher, GTK_ALIGN_CENTER)
        for child in [artwork.widget, artistLabel, titleLabel, subtitleLabel, switcher, stack] {
            Gtk.append(content, child)
        }
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), content)
        gtk_widget_set_size_request(widget, 380, -1)

        review.onRegenerate = { [weak store] in
            guard let store else { return }
            Task { await store.regenerateReview() }
        }
        store.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
    }

    private func render(_ state: AlbumDetailState) {
        guard let album = state.album else {
            gtk_widget_set_visible(widget, 0)
            return
        }
        gtk_widget_set_visible(widget, 1)
        var reviewValue: Review?
        if case .available(let value) = state.review { reviewValue = value }
        artwork.show(album: album, review: reviewValue)
        Gtk.setText(artistLabel, album.artist)
        Gtk.setText(titleLabel, album.title)
        Gtk.setText(subtitleLabel, state.subtitle)
        tracks.show(state.tracks)
        review.show(state.review, canGenerate: store.canGenerateReviews)
    }
}
