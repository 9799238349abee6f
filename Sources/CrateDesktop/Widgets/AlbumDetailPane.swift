import CGtk
import CrateCore

/// The detail pane: artwork with badge, artist, title, "Released · Genre · Label", then a
/// Tracks | Review switcher. Bound to an AlbumDetailStore.
@MainActor
final class AlbumDetailPane {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let artwork = ArtworkView()
    private let artistLabel: UnsafeMutablePointer<GtkWidget>
    /// The artist's name as a link: opens the artist's page.
    let artistButton: UnsafeMutablePointer<GtkWidget>
    /// The artist link was clicked: the artist's name and the album's release group.
    var onArtist: ((String, MBID?) -> Void)?
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let subtitleLabel: UnsafeMutablePointer<GtkWidget>
    /// "Not in your music folder" under the play button, for the album shown.
    private let playbackNote: UnsafeMutablePointer<GtkWidget>
    private var playbackNoteAlbumID: Int64?
    private let tracks = TrackListView()
    let review = ReviewView()
    let candidates = CandidateList()
    /// Heart, ✕ and "Add to Crate".
    let actions = AlbumActionBar()
    /// "View on Discogs" with the match score (only with a stored link).
    let discogs = DiscogsLinkButton()
    /// "In your Discogs collection (2 copies)", "Add to Wantlist" (crate albums with a Discogs release, with a token).
    let discogsAccount = DiscogsAccountRow()
    private let discogsAccountStore: DiscogsAccountStore?
    /// Owned / Wanted / Seen before / New to you, above an album a scan just found.
    let verdict = VerdictBanner()
    /// Release facts, "I Own This", "Want" and the copies (crate albums, when a record store is given).
    let record = RecordSection()
    private let recordStore: RecordStore?
    /// "Not this pressing?" (crate albums matched to a MusicBrainz release group).
    let pressings = PressingList()
    private let pressingsStore: PressingsStore?
    /// The album the pressings list belongs to (another album closes it).
    private var pressingsAlbumID: Int64?
    /// A switch to another pressing was saved: the album that now stands for it, and the pressing.
    var onPressingSwitched: ((Album, Pressing) -> Void)?
    /// A collection change was saved: what to say, and how to take it back.
    var onCollectionChange: ((String, CollectionUndo) -> Void)?
    private let store: AlbumDetailStore
    /// "Couldn't add …" and other messages of the pane.
    private let messageLabel: UnsafeMutablePointer<GtkWidget>
    /// Play the whole album (nil index) or from one track.
    var onPlay: ((Int64, TrackSlot?) -> Void)?
    /// The "Play the album" button (tests click it).
    private(set) var playAlbumButton: UnsafeMutablePointer<GtkWidget>!
    private var tracksButton: UnsafeMutablePointer<GtkWidget>!
    private var reviewButton: UnsafeMutablePointer<GtkWidget>!
    private var tokens: [ObservationToken] = []
    /// What plays now (the Play button turns into Pause for the shown album; the track list marks
    /// the playing track).
    private var playback = PlaybackState()
    /// "Playback is simulated": shown while the log-backed stand-in player is in use.
    private let simulatedLabel: UnsafeMutablePointer<GtkWidget>
    /// Pause / resume the album playing now.
    var onToggle: (() -> Void)?
    /// The Play button's icon changed (test events).
    var onPlayIcon: ((String) -> Void)?
    private var playIcon = "media-playback-start-symbolic"
    /// The album shown last (crate id or release group): another one opens at the top.
    private var shownKey: String?

    /// This pane's own accent colours (another pane's album never tints it).
    private let accent = AccentStyle.newDetailSlot()

    init(store: AlbumDetailStore, record recordStore: RecordStore? = nil, pressings pressingsStore: PressingsStore? = nil,
         discogsAccount discogsAccountStore: DiscogsAccountStore? = nil) {
        self.store = store
        self.discogsAccountStore = discogsAccountStore
        self.recordStore = recordStore
        self.pressingsStore = pressingsStore
        let content = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 8, classes: ["detail-pane", accent.cssClass])
        artistLabel = Gtk.label("", classes: ["title-3", "detail-artist"], xalign: 0.5)
        titleLabel = Gtk.label("", classes: ["title-1", "detail-title"], xalign: 0.5)
        subtitleLabel = Gtk.label("", classes: ["dim-label"], xalign: 0.5)
        playbackNote = Gtk.label("", classes: ["dim-label", "detail-playback-note"], xalign: 0.5)
        gtk_widget_set_visible(playbackNote, 0)
        for label in [artistLabel, titleLabel, subtitleLabel] {
            gtk_label_set_wrap(crate_label(label), 1)
            gtk_label_set_justify(crate_label(label), GTK_JUSTIFY_CENTER)
        }
        artistButton = gtk_button_new()!
        gtk_button_set_child(crate_button(artistButton), artistLabel)
        gtk_widget_add_css_class(artistButton, "flat")
        gtk_widget_add_css_class(artistButton, "artist-link")
        gtk_widget_set_halign(artistButton, GTK_ALIGN_CENTER)
        // Two linked toggle buttons instead of a GtkStack: GTK 4.8's stack mis-measures the
        // height (and width) of wrapped review text, so the tabs are just shown and hidden.
        let switcher = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, classes: ["linked", "detail-tabs"])
        gtk_widget_set_halign(switcher, GTK_ALIGN_CENTER)
        tracksButton = gtk_toggle_button_new_with_label(L10n.tr("Tracks"))!
        reviewButton = gtk_toggle_button_new_with_label(L10n.tr("Review"))!
        gtk_toggle_button_set_group(crate_toggle_button(reviewButton), crate_toggle_button(tracksButton))
        Gtk.append(switcher, tracksButton)
        Gtk.append(switcher, reviewButton)
        let playAlbum = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        playAlbumButton = playAlbum
        Gtk.setTooltip(playAlbum, L10n.tr("Play the album"))
        Gtk.setAccessibleLabel(playAlbum, L10n.tr("Play the album"))
        gtk_widget_add_css_class(playAlbum, "suggested-action")
        gtk_widget_set_margin_start(playAlbum, 12)
        Gtk.append(switcher, playAlbum)
        let stack = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 0)
        Gtk.append(stack, tracks.widget)
        Gtk.append(stack, review.widget)
        simulatedLabel = Gtk.label(L10n.tr("Playback is simulated: Crate logs what would play, without sound."), classes: ["dim-label", "caption", "simulated-playback"], xalign: 0.5)
        Gtk.wrap(simulatedLabel)
        gtk_widget_set_visible(simulatedLabel, 0)
        messageLabel = Gtk.label("", classes: ["dim-label", "caption"], xalign: 0.5)
        Gtk.wrap(messageLabel)
        gtk_widget_set_visible(messageLabel, 0)
        gtk_widget_set_visible(record.widget, 0)
        pressings.setAvailable(false)
        // "Not this album?" right under the title: after a scan, whether it is the right album
        // comes before what the crate knows about it (and the rows stay in view).
        for child in [verdict.widget, artwork.widget, artistButton, titleLabel, subtitleLabel, candidates.widget, actions.widget, record.widget,
                      pressings.widget, discogs.widget, discogsAccount.widget, messageLabel, switcher, playbackNote, simulatedLabel, stack] {
            Gtk.append(content, child)
        }
        widget = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(crate_scrolled_window(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        // The clamp holds the pane's natural width at 440 px whatever its content asks for (with
        // an open "Not this album?" list the scrolled window alone let it grow to 800 px).
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(crate_clamp(clamp), 440)
        adw_clamp_set_tightening_threshold(crate_clamp(clamp), 440)
        adw_clamp_set_child(crate_clamp(clamp), content)
        gtk_scrolled_window_set_child(crate_scrolled_window(widget), clamp)
        // At least 340 px (it fits a 360 px window); beside the grid it takes the width its content
        // asks for, at most 440 px, and the grid gets the rest.
        gtk_widget_set_size_request(widget, 340, -1)
        // Never wider because something inside expands (a candidate row, a long title): the
        // pane and the grid's columns used to jump from album to album.
        gtk_widget_set_hexpand(widget, 0)
        gtk_scrolled_window_set_propagate_natural_width(crate_scrolled_window(widget), 1)
        gtk_scrolled_window_set_max_content_width(crate_scrolled_window(widget), 440)

        let scope = GObjectScope.of(widget)
        scope.connect(tracksButton, "toggled") { [weak self] in
            guard let self, gtk_toggle_button_get_active(crate_toggle_button(self.tracksButton)) != 0 else { return }
            self.showTab("tracks")
        }
        scope.connect(reviewButton, "toggled") { [weak self] in
            guard let self, gtk_toggle_button_get_active(crate_toggle_button(self.reviewButton)) != 0 else { return }
            self.showTab("review")
        }
        showTab("tracks")
        scope.connect(self.playAlbumButton, "clicked") { [weak self] in
            guard let self, let id = self.store.state.value.album?.id else { return }
            // The album playing (or paused) now: the button pauses or resumes it.
            if self.playback.nowPlayingAlbum?.id == id, self.playback.status != .stopped {
                self.onToggle?()
            } else {
                self.onPlay?(id, nil)
            }
        }
        tracks.onToggle = { [weak self] in self?.onToggle?() }
        scope.connect(artistButton, "clicked") { [weak self] in
            guard let self, let album = self.store.state.value.album, !album.artist.isEmpty else { return }
            self.onArtist?(album.artist, MBID(validating: album.musicBrainzReleaseGroupID))
        }

        tracks.onPlay = { [weak self] index in self?.playTrack(at: index) }
        actions.onAdd = { [weak store] in
            guard let store else { return }
            Task { await store.addShownToCrate() }
        }
        review.onRegenerate = { [weak store] in
            guard let store else { return }
            Task { await store.regenerateReview() }
        }
        store.state.subscribe(initial: true) { [weak self] state in
            self?.render(state)
        }.store(in: &tokens)
        bindRecord()
        bindPressings()
        bindDiscogsAccount()
    }

    /// The Discogs account line follows the shown crate album; its buttons queue an addition.
    private func bindDiscogsAccount() {
        guard let discogsAccountStore else { return }
        discogsAccountStore.state.subscribe(initial: true) { [weak self] state in
            self?.discogsAccount.show(state)
        }.store(in: &tokens)
        discogsAccount.onAddToCollection = { [weak discogsAccountStore] in
            Task { await discogsAccountStore?.addToCollection() }
        }
        discogsAccount.onAddToWantlist = { [weak discogsAccountStore] in
            Task { await discogsAccountStore?.addToWantlist() }
        }
    }

    /// The pressings list opens (and reads MusicBrainz) when expanded; a row switches the album.
    private func bindPressings() {
        guard let pressingsStore else { return }
        pressingsStore.state.subscribe(initial: true) { [weak self] state in
            self?.pressings.show(state)
        }.store(in: &tokens)
        pressings.onExpanded = { [weak self, weak pressingsStore] expanded in
            guard let self, let pressingsStore else { return }
            guard expanded, let album = self.store.state.value.album, let id = album.id else { return pressingsStore.close() }
            Task { await pressingsStore.open(albumID: id, currentReleaseID: album.musicBrainzReleaseID) }
        }
        pressings.onReveal = { [weak self] list in self?.scrollIntoView(list) }
        pressings.onChoose = { [weak self, weak pressingsStore] pressing in
            Task { [weak self] in
                guard let album = await pressingsStore?.choose(releaseID: pressing.releaseID.rawValue) else { return }
                pressingsStore?.close()
                self?.onPressingSwitched?(album, pressing)
            }
        }
    }

    /// The record section follows the shown crate album; its buttons change the collection.
    private func bindRecord() {
        guard let recordStore else { return }
        recordStore.state.subscribe(initial: true) { [weak self] state in
            guard let self else { return }
            self.record.show(state)
            self.verdict.show(state.verdict)
        }.store(in: &tokens)
        record.onOwn = { [weak self] in self?.own() }
        record.onWant = { [weak self] in self?.toggleWanted() }
        record.onRemoveCopy = { [weak self, weak recordStore] copy in
            guard let recordStore, let id = copy.id else { return }
            Task { [weak self] in
                guard let undo = await recordStore.unown(copyID: id) else { return }
                self?.onCollectionChange?(L10n.tr("Removed a copy of “%@”", self?.store.state.value.album?.title ?? ""), undo)
            }
        }
    }

    /// Scrolls the pane so `child` shows whole (its top, when it is taller than the pane), once
    /// it has been laid out.
    private func scrollIntoView(_ child: UnsafeMutablePointer<GtkWidget>) {
        let scroller = widget
        GObjectScope.of(child).every(milliseconds: 50) {
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(child, scroller, &bounds) != 0,
                  let adjustment = gtk_scrolled_window_get_vadjustment(crate_scrolled_window(scroller)) else { return false }
            let height = Double(gtk_widget_get_height(scroller))
            let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
            let shift = bottom > height ? min(bottom - height, top) : 0
            if shift > 0 { gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + shift) }
            return false
        }
    }

    /// "I Own This" / "Add a Copy" (Ctrl+Shift+O).
    func own() {
        guard let recordStore, store.state.value.album?.id != nil else { return }
        Task { [weak self] in
            guard let undo = await recordStore.own() else { return }
            self?.onCollectionChange?(L10n.tr("Owned: “%@”", self?.store.state.value.album?.title ?? ""), undo)
        }
    }

    /// "Want" ⇄ "Wanted" (Ctrl+Shift+W).
    func toggleWanted() {
        guard let recordStore, store.state.value.album?.id != nil else { return }
        let wasWanted = recordStore.state.value.collection.isWanted
        Task { [weak self] in
            guard let undo = await recordStore.toggleWanted() else { return }
            let title = self?.store.state.value.album?.title ?? ""
            self?.onCollectionChange?(wasWanted ? L10n.tr("“%@” is off your wantlist", title) : L10n.tr("“%@” is on your wantlist", title), undo)
        }
    }

    /// Playback changed: Play/Pause, the playing track.
    func setPlayback(_ state: PlaybackState, simulated: Bool) {
        playback = state
        gtk_widget_set_visible(simulatedLabel, simulated ? 1 : 0)
        renderPlayback()
    }

    private func renderPlayback() {
        let state = store.state.value
        let thisAlbum = state.album?.id != nil && playback.nowPlayingAlbum?.id == state.album?.id && playback.status != .stopped
        let playing = thisAlbum && playback.status == .playing
        let icon = playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic"
        let tip = playing ? L10n.tr("Pause") : (thisAlbum ? L10n.tr("Resume") : L10n.tr("Play the album"))
        gtk_button_set_icon_name(crate_button(playAlbumButton), icon)
        Gtk.setTooltip(playAlbumButton, tip)
        Gtk.setAccessibleLabel(playAlbumButton, tip)
        if icon != playIcon {
            playIcon = icon
            onPlayIcon?(icon)
        }
        let nowPlaying = thisAlbum ? playback.nowPlayingTrack.map { TrackListView.NowPlaying(disc: $0.disc, position: $0.position, isPlaying: playing) } : nil
        tracks.show(state.tracks, keyTracks: state.keyTrackIDs, nowPlaying: nowPlaying, withoutFiles: state.tracksWithoutFiles)
    }

    /// The track list's marks (test events).
    /// A track's context menu is asked for: the album, the track's index and the row to point at.
    var onTrackMenu: ((Album, Int, Track, UnsafeMutablePointer<GtkWidget>, (x: Double, y: Double)?) -> Void)? {
        didSet {
            tracks.onContextMenu = { [weak self] index, track, row, point in
                guard let self, let album = self.store.state.value.album else { return }
                self.onTrackMenu?(album, index, track, row, point)
            }
        }
    }

    /// Plays the shown album from the track at `index` (the track menu's Play from Here).
    func playTrack(at index: Int) {
        let state = store.state.value
        guard let id = state.album?.id, state.tracks.indices.contains(index) else { return }
        let track = state.tracks[index]
        onPlay?(id, TrackSlot(disc: track.disc, position: track.position))
    }

    var onTracksMarked: ((_ playing: Int?, _ keyTracks: Int) -> Void)? {
        get { tracks.onMarked }
        set { tracks.onMarked = newValue }
    }

    /// "tracks" or "review".
    func showTab(_ name: String) {
        gtk_toggle_button_set_active(crate_toggle_button(name == "review" ? reviewButton : tracksButton), 1)
        gtk_widget_set_visible(tracks.widget, name == "review" ? 0 : 1)
        gtk_widget_set_visible(review.widget, name == "review" ? 1 : 0)
    }

    /// Shows why an album cannot play (nil hides it); kept only while that album is shown.
    func showPlaybackNote(_ text: String?, albumID: Int64?) {
        playbackNoteAlbumID = text == nil ? nil : albumID
        Gtk.setText(playbackNote, text ?? "")
        let visible = text != nil && albumID == store.state.value.album?.id
        gtk_widget_set_visible(playbackNote, visible ? 1 : 0)
        onPlaybackNote?(visible ? text : nil)
    }
    /// Called with the note under the title whenever it is set (nil: none shows).
    var onPlaybackNote: ((String?) -> Void)?

    private func render(_ state: AlbumDetailState) {
        if state.album?.id != playbackNoteAlbumID, gtk_widget_get_visible(playbackNote) != 0 {
            gtk_widget_set_visible(playbackNote, 0)
            onPlaybackNote?(nil)
        }
        if let recordStore { Task { await recordStore.show(albumID: state.album?.id) } }
        if let discogsAccountStore { Task { await discogsAccountStore.show(albumID: state.album?.id) } }
        if state.album?.id != pressingsAlbumID {
            pressingsAlbumID = state.album?.id
            pressingsStore?.close()
        }
        pressings.setAvailable(pressingsStore != nil && state.album?.id != nil && state.album?.musicBrainzReleaseGroupID != nil)
        guard let album = state.album else {
            gtk_widget_set_visible(widget, 0)
            return
        }
        gtk_widget_set_visible(widget, 1)
        // Another album starts at its cover, not where the last one was scrolled to.
        let key = "\(album.id.map(String.init) ?? "")|\(album.musicBrainzReleaseGroupID ?? album.title)"
        if key != shownKey {
            shownKey = key
            if let adjustment = gtk_scrolled_window_get_vadjustment(crate_scrolled_window(widget)) { gtk_adjustment_set_value(adjustment, 0) }
        }
        var reviewValue: Review?
        if case .available(let value) = state.review { reviewValue = value }
        artwork.show(album: album, review: reviewValue)
        let thumbnail = album.artworkStatus == .available ? album.thumbnailURL(in: TextureCache.artworkDirectory)?.path : nil
        AccentStyle.apply(thumbnailPath: thumbnail, to: accent.slot)
        Gtk.setText(artistLabel, album.artist)
        Gtk.setTooltip(artistButton, L10n.tr("All albums by %@", album.artist))
        Gtk.setAccessibleLabel(artistButton, L10n.tr("All albums by %@", album.artist))
        Gtk.setText(titleLabel, album.title)
        Gtk.setText(subtitleLabel, state.subtitle)
        review.show(state.review, canGenerate: store.canGenerateReviews)
        actions.show(rating: state.rating, canRate: state.ratedAlbum != nil, canAdd: state.wallItem != nil && store.canAddToCrate,
                     adding: state.isAddingToCrate)
        discogs.show(state)
        Gtk.setText(messageLabel, state.errorMessage ?? "")
        gtk_widget_set_visible(messageLabel, state.errorMessage == nil ? 0 : 1)
        // A wall album not in the crate has nothing to play yet.
        gtk_widget_set_visible(playAlbumButton, album.id == nil ? 0 : 1)
        renderPlayback()
    }
}
