/// What `AlbumQueueManager` concluded when the playing entry changed.
public struct TrackChange: Equatable, Sendable {
    /// False when the entry is neither ahead of the cursor nor one step behind it: the player
    /// wrapped around or left the batch, so the batch is over.
    public var found: Bool
    /// Index of the entry in the batch queue, when found.
    public var entryIndex: Int?
    /// Album the entry belongs to, when found.
    public var albumID: Int64?
    /// True when the entry belongs to a different album (grid slot) than the previous one.
    public var albumChanged: Bool
    /// True exactly once per batch: when the batch's last album starts and more albums follow.
    public var shouldPrefetchNextBatch: Bool

    public init(found: Bool, entryIndex: Int? = nil, albumID: Int64? = nil, albumChanged: Bool = false, shouldPrefetchNextBatch: Bool = false) {
        self.found = found
        self.entryIndex = entryIndex
        self.albumID = albumID
        self.albumChanged = albumChanged
        self.shouldPrefetchNextBatch = shouldPrefetchNextBatch
    }

    /// The player is no longer inside the batch.
    public static let wrapped = TrackChange(found: false)
}
