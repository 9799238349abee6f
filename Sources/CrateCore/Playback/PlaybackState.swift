/// What the playback bar shows. Written only by `PlaybackStore`.
public struct PlaybackState: Equatable, Sendable {
    public var status: PlayerState.Status = .stopped
    /// The album playing now; set only once the player has actually started.
    public var nowPlayingAlbum: Album?
    public var nowPlayingTrack: Track?
    public var positionMs: Int = 0
    public var durationMs: Int = 0
    /// True while the batch's track lists load, before anything plays (the play button spins).
    public var isPreparingQueue = false
    /// Albums of the current batch, in order, and those skipped for lack of a track list.
    public var batchAlbumIDs: [Int64] = []
    public var skippedAlbumIDs: [Int64] = []
    /// A message for the user (e.g. "No track list for this album"); cleared by the next play
    /// and by Stop. Setting it forgets `refusedAlbumID`.
    public var message: String? {
        didSet { refusedAlbumID = nil }
    }
    /// Set when `message` says why a request for this album could not play: it belongs to that
    /// album's pane, not under the album that may still be playing.
    public var refusedAlbumID: Int64?

    public init() {}
}
