/// One track in a player's queue, tagged with the album (and grid slot) it came from.
///
/// Identity is the grid slot plus disc and position, never the title: two albums may both open
/// with "Intro", and the same album may even sit in a grid twice.
public struct QueueEntry: Identifiable, Equatable, Sendable {
    /// Identifies an entry within one grid's queue.
    public struct ID: Hashable, Sendable {
        /// Index of the entry's album in the grid it was queued from.
        public let gridIndex: Int
        public let disc: Int
        public let position: Int
    }

    public let id: ID
    public let albumID: Int64
    public let track: Track
    /// The audio file to play (a `PathBytes` path), when the album was matched in the music
    /// folder; nil for the log player's simulated tracks.
    public let filePath: String?
    /// The album gain the library stored (`crate music analyze`, or R128_ALBUM_GAIN read at
    /// scan time), for files without REPLAYGAIN_* tags; nil when none is known.
    public var albumGainDb: Double?

    public init(gridIndex: Int, albumID: Int64, track: Track, filePath: String? = nil, albumGainDb: Double? = nil) {
        self.id = ID(gridIndex: gridIndex, disc: track.disc, position: track.position)
        self.albumID = albumID
        self.track = track
        self.filePath = filePath
        self.albumGainDb = albumGainDb
    }

    /// The file's `file://` URI, when there is a file.
    public var uri: String? { filePath.map(MusicFile.uri(forPath:)) }

    /// The track's length, when the metadata knows it.
    public var durationMs: Int? { track.durationMs }
}
