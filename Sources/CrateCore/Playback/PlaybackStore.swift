import Foundation

/// Album playback for the app: widgets read `state` and call the intent methods.
///
/// The store owns an `AlbumQueueManager` (what to play) and drives a `Player` (how). Track lists
/// come from the library; an album without one is looked up through the `TrackListProvider`, and
/// if that fails the user sees "No track list for this album" while the queue skips it.
/// A whole batch is loaded before anything plays (docs/decisions/0003-grid-playback-in-batches.md), so nothing is rebuilt mid-album.
@MainActor
public final class PlaybackStore {
    public let state = ObservableValue(PlaybackState())

    let database: AppDatabase
    public let player: any Player
    /// Replaced when settings change (another MusicBrainz endpoint or contact).
    private(set) var trackLists: TrackListProvider
    /// Where albums' audio files are found (real playback). Nil plays the library's track lists
    /// on a player that needs no files (the log player).
    public var albumFiles: AlbumFiles?
    var manager: AlbumQueueManager?
    var albums: [Int64: Album] = [:]
    /// The next batch, loading in the background since the current batch's last album started.
    var prefetch: Task<BatchContent, Never>?
    /// Moving on to the next batch after the player finished (or wrapped) the current one.
    var advanceTask: Task<Void, Never>?
    /// True between loading a queue and the player's `play()` returning: no "now playing" yet.
    var isStarting = false
    /// Bumped by every new play and by stop, so work started for an older session drops its result.
    var session = 0
    /// Bumped by every play request and by stop: a request that finished loading after a newer
    /// one (or a stop) was made drops its result.
    var request = 0
    private var playerToken: ObservationToken?
    /// Why the last batch's albums had no files (real playback), for "nothing to play".
    var lastWithoutFiles: AudioPlaybackError?
    /// The player's last problem already shown, so each is shown once.
    var lastPlayerProblem: String?

    public init(database: AppDatabase, player: any Player, trackLists: TrackListProvider = .unavailable, albumFiles: AlbumFiles? = nil) {
        self.database = database
        self.player = player
        self.trackLists = trackLists
        self.albumFiles = albumFiles
        playerToken = player.state.subscribe { [weak self] playerState in
            self?.playerDidChange(playerState)
        }
    }

    // MARK: - Intents

    /// Looks up missing track lists through `provider` from now on (after Preferences changed).
    public func replaceTrackLists(_ provider: TrackListProvider) {
        trackLists = provider
    }

    /// Plays an album from its first track. With a grid, the albums after it follow in batches.
    /// The album asked for plays, or the user is told why it cannot: another album never starts
    /// in its place, and what was playing goes on until the new album is ready.
    public func play(albumID: Int64, grid: GridContext? = nil) async {
        await start(albumID: albumID, slot: nil, grid: grid)
    }

    /// Plays an album from one of its tracks, known by disc and position (a track read from a
    /// file has no id, and the files may hold fewer tracks than the album's list). A track
    /// without a file says so instead of playing another one.
    ///
    /// When the album is already in the playing batch, only the cursor moves: the batch and
    /// auto-advance carry on (docs/decisions/0003-grid-playback-in-batches.md, "within-batch play path").
    public func play(track slot: TrackSlot, ofAlbum albumID: Int64, grid: GridContext? = nil) async {
        if var manager, manager.cursor != nil, let index = manager.entryIndex(ofAlbum: albumID, slot: slot),
           manager.seekToTrack(at: index) != nil {
            request += 1
            self.manager = manager
            // A track the user chose: the last problem was about another one.
            state.update { $0.message = nil }
            await startPlayer(entries: manager.entries, at: index, session: session)
            return
        }
        await start(albumID: albumID, slot: slot, grid: grid)
    }

    /// Pauses when playing; resumes when paused or stopped with a queue.
    public func togglePlay() async {
        switch player.state.value.status {
        case .playing:
            await player.pause()
        case .paused:
            await resume()
        case .stopped:
            guard manager?.cursor != nil else { return }
            await resume()
        }
    }

    /// Next track; after an album's last track, the next album of the batch.
    public func next() async {
        guard manager != nil else { return }
        await player.next()
    }

    /// Previous track (or the start of this one), across album boundaries within the batch.
    public func previous() async {
        guard manager != nil else { return }
        await player.previous()
    }

    /// Moves within the playing track.
    public func seek(toMs positionMs: Int) async {
        guard manager != nil else { return }
        await player.seek(toMs: positionMs)
    }

    /// Stops playback and ends the session: no further album follows, and a request still
    /// loading is dropped. The last problem belonged to what was playing: it goes too.
    public func stop() async {
        request += 1
        endSession()
        await player.stop()
        state.update {
            $0.status = .stopped
            $0.positionMs = 0
            $0.message = nil
        }
    }

    /// Waits until background work (a pre-fetch, a move to the next batch) is done.
    /// For tests and `crate play`, which need playback to be quiet before they look.
    public func settle() async {
        while true {
            if let task = advanceTask {
                await task.value
                if advanceTask == task { advanceTask = nil }
                continue
            }
            if let prefetch {
                _ = await prefetch.value
            }
            // Awaiting the pre-fetch may have let a finished queue schedule a move; wait for it too.
            if advanceTask == nil { return }
        }
    }

    // MARK: - Private

    private func start(albumID: Int64, slot: TrackSlot?, grid: GridContext?) async {
        request += 1
        let request = self.request
        let context = grid.flatMap { grid in
            grid.tappedAlbumID == albumID ? grid : GridContext(albumIDs: grid.albumIDs, tapped: albumID)
        } ?? .single(albumID)
        var manager = AlbumQueueManager(grid: context)
        state.update {
            $0.isPreparingQueue = true
            $0.message = nil
        }
        let content = await loadBatch(manager.batchAlbumIDs)
        // A newer request (or Stop) came while this one loaded: it decides.
        guard request == self.request else { return }
        manager.fill(trackLists: content.trackLists, files: content.files, gains: content.gains)
        guard let first = manager.entryIndex(ofAlbum: albumID) else {
            if content.missingAlbumIDs.contains(albumID) {
                refuse(PlaybackError.albumNotFound(albumID), albumID: albumID)
            } else if let withoutFiles = content.withoutFiles[albumID] {
                refuse(withoutFiles, albumID: albumID)
            } else {
                refuse(Self.noTrackList(content.albums[albumID], albumID: albumID), albumID: albumID)
            }
            return
        }
        var index = first
        if let slot {
            guard let found = manager.entryIndex(ofAlbum: albumID, slot: slot) else {
                refuse(AudioPlaybackError.trackNotInMusicFolder(albumID: albumID, disc: slot.disc, position: slot.position), albumID: albumID)
                return
            }
            index = found
        }
        let session = newSession()
        state.update { $0.isPreparingQueue = true }
        apply(content, to: &manager)
        await begin(manager, at: index, session: session)
    }

    /// Why an album has no track list: still on its way, given up on, or just missing.
    static func noTrackList(_ album: Album?, albumID: Int64) -> PlaybackError {
        switch album?.tracksStatus {
        case .pending: return .trackListPending(albumID: albumID)
        case .failed: return .trackListFailed(albumID: albumID)
        default: return .noTrackList(albumID: albumID)
        }
    }

    /// A request that cannot play: says why; what was playing goes on.
    private func refuse(_ error: Error, albumID: Int64) {
        state.update {
            $0.isPreparingQueue = false
            $0.message = Self.describe(error)
            $0.refusedAlbumID = albumID
        }
    }

    private func resume() async {
        do {
            try await player.play()
        } catch {
            state.update { $0.message = Self.describe(error) }
        }
    }

    func fail(_ error: Error) {
        endSession()
        state.update {
            $0.isPreparingQueue = false
            $0.message = Self.describe(error)
        }
    }

    static func describe(_ error: Error) -> String {
        UserMessage.text(for: error)
    }
}
