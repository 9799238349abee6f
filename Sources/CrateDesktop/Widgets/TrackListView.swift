import CGtk
import CrateCore

/// The Tracks tab: the album's tracks in disc order with their durations; the review's key
/// tracks carry a star, and the track playing now is marked (its button pauses).
@MainActor
final class TrackListView {
    /// What the list shows about playback: the playing track of this album (by disc and
    /// position, which is also how tracks read from files are known: they have no id) and
    /// whether it plays.
    struct NowPlaying: Equatable {
        var disc: Int
        var position: Int
        var isPlaying: Bool
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let emptyLabel: UnsafeMutablePointer<GtkWidget>
    private var shown: (tracks: [Track], keyTracks: Set<Int64>, nowPlaying: NowPlaying?, withoutFiles: Set<TrackSlot>)?
    /// Plays the track at this index of the list (disc order).
    var onPlay: ((Int) -> Void)?
    /// The playing track's button: pause or resume.
    var onToggle: (() -> Void)?
    /// A track's context menu is asked for (its index, the row, a point in it or nil for the Menu key).
    var onContextMenu: ((Int, Track, UnsafeMutablePointer<GtkWidget>, (x: Double, y: Double)?) -> Void)?
    /// The rows shown, in track order (the Menu key finds the focused one here).
    private var rowWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    /// After each redraw: the marked track's index (test events).
    var onMarked: ((_ playing: Int?, _ keyTracks: Int) -> Void)?

    init() {
        widget = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(crate_list_box(list), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(list, "boxed-list")
        gtk_widget_add_css_class(list, "track-list")
        Gtk.setAccessibleLabel(list, L10n.tr("Tracks"))
        emptyLabel = Gtk.label(L10n.tr("No track list for this album yet."), classes: ["dim-label"], xalign: 0.5)
        Gtk.append(widget, list)
        Gtk.append(widget, emptyLabel)
        ContextMenu.onMenuKey(list) { [weak self] in
            guard let self, let shown = self.shown, let focused = gtk_widget_get_focus_child(self.list),
                  let row = gtk_list_box_row_get_child(crate_list_box_row(focused)),
                  let index = self.rowWidgets.firstIndex(of: row), shown.tracks.indices.contains(index) else { return }
            self.onContextMenu?(index, shown.tracks[index], row, nil)
        }
    }

    /// Redraws only when something it shows changed.
    /// `withoutFiles`: tracks with no file in the music folder, shown dimmed with no play button.
    func show(_ tracks: [Track], keyTracks: Set<Int64> = [], nowPlaying: NowPlaying? = nil, withoutFiles: Set<TrackSlot> = []) {
        if let shown, shown.tracks == tracks, shown.keyTracks == keyTracks, shown.nowPlaying == nowPlaying, shown.withoutFiles == withoutFiles { return }
        shown = (tracks, keyTracks, nowPlaying, withoutFiles)
        // gtk_list_box_remove_all arrived in GTK 4.12; Debian 12 has 4.8.
        while let child = gtk_widget_get_first_child(list) {
            gtk_list_box_remove(crate_list_box(list), child)
        }
        rowWidgets = []
        let multiDisc = Set(tracks.map(\.disc)).count > 1
        var lastDisc: Int?
        var playingIndex: Int?
        for (index, track) in tracks.enumerated() {
            if multiDisc && track.disc != lastDisc {
                let header = Gtk.label(L10n.tr("Disc %@", track.disc), classes: ["heading", "disc-header"])
                gtk_list_box_append(crate_list_box(list), header)
                lastDisc = track.disc
            }
            let playing = track.disc == nowPlaying?.disc && track.position == nowPlaying?.position ? nowPlaying : nil
            if playing != nil { playingIndex = index }
            let hasFile = !withoutFiles.contains(TrackSlot(disc: track.disc, position: track.position))
            let trackRow = row(track, index: index, isKey: track.id.map(keyTracks.contains) ?? false, playing: playing, hasFile: hasFile)
            rowWidgets.append(trackRow)
            ContextMenu.onSecondaryClick(trackRow) { [weak self] x, y in
                guard let self, self.rowWidgets.indices.contains(index) else { return }
                self.onContextMenu?(index, track, self.rowWidgets[index], (x, y))
            }
            gtk_list_box_append(crate_list_box(list), trackRow)
        }
        gtk_widget_set_visible(list, tracks.isEmpty ? 0 : 1)
        gtk_widget_set_visible(emptyLabel, tracks.isEmpty ? 1 : 0)
        if WidgetEvents.isObserved, let root = gtk_widget_get_root(widget) {
            // Where each row's play button is (xdotool plays a track by clicking it).
            let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
            for (index, row) in rowWidgets.enumerated() { WidgetEvents.place("track-play-\(index)", of: row, x: 20, in: window) }
        }
        onMarked?(playingIndex, tracks.filter { $0.id.map(keyTracks.contains) ?? false }.count)
    }

    private func row(_ track: Track, index: Int, isKey: Bool, playing: NowPlaying?, hasFile: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["track-row"])
        let icon = playing?.isPlaying == true ? "media-playback-pause-symbolic" : "media-playback-start-symbolic"
        let verb = playing?.isPlaying == true ? L10n.tr("Pause") : (playing != nil ? L10n.tr("Resume") : L10n.tr("Play"))
        let play = Gtk.iconButton(icon, label: playing?.isPlaying == true ? L10n.tr("Pause %@", track.title)
            : (playing != nil ? L10n.tr("Resume %@", track.title) : L10n.tr("Play %@", track.title)))
        Gtk.setTooltip(play, verb)
        gtk_widget_add_css_class(play, "flat")
        GObjectScope.of(widget).connect(play, "clicked") { [weak self] in
            if playing != nil { self?.onToggle?() } else { self?.onPlay?(index) }
        }
        if !hasFile {
            // Nothing to play: the row says why instead of a button that would play another track.
            gtk_widget_set_sensitive(play, 0)
            gtk_widget_add_css_class(row, "without-file")
            Gtk.setTooltip(row, L10n.tr("Not in your music folder"))
        }
        // The playing track shows a speaker instead of its number.
        let number: UnsafeMutablePointer<GtkWidget>
        if playing != nil {
            number = gtk_image_new_from_icon_name(playing?.isPlaying == true ? "audio-volume-high-symbolic" : "media-playback-pause-symbolic")!
            gtk_widget_set_size_request(number, 28, -1)
            gtk_widget_add_css_class(number, "accent")
            gtk_widget_add_css_class(row, "now-playing")
        } else {
            number = Gtk.label(track.number ?? String(track.position), classes: ["dim-label", "numeric"], xalign: 1)
            gtk_label_set_width_chars(crate_label(number), 3)
        }
        let title = Gtk.label(track.title)
        gtk_label_set_ellipsize(crate_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(title, 1)
        Gtk.setTooltip(title, track.title)
        Gtk.append(row, play)
        Gtk.append(row, number)
        Gtk.append(row, title)
        if isKey {
            let star = gtk_image_new_from_icon_name("starred-symbolic")!
            gtk_widget_add_css_class(star, "key-track")
            Gtk.setTooltip(star, L10n.tr("Key track (from the review)"))
            Gtk.setAccessibleLabel(star, L10n.tr("Key track"))
            Gtk.append(row, star)
        }
        let duration = Gtk.label(Self.format(track.durationMs), classes: ["dim-label", "numeric"], xalign: 1)
        Gtk.append(row, duration)
        var description = "\(track.title)"
        if isKey { description += ", key track" }
        if let playing { description += playing.isPlaying ? ", playing" : ", paused" }
        if !hasFile { description += ", " + L10n.tr("Not in your music folder") }
        Gtk.setAccessibleLabel(row, description)
        return row
    }

    static func format(_ milliseconds: Int?) -> String {
        guard let milliseconds, milliseconds > 0 else { return "" }
        let seconds = milliseconds / 1000
        return seconds >= 3600
            ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}
