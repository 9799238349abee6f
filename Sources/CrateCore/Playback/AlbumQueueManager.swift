/// Pure queue logic for album playback from a grid (docs/decisions/0003-grid-playback-in-batches.md). No I/O, no player: it decides.
///
/// - A grid context (albums + tapped index) is split into batches of `batchSize` albums: the
///   tapped one and the four after it, then the next five, and so on to the end of the grid.
/// - A batch's queue is every track of every album in grid order, each album in canonical order
///   (disc, then position). An album without a track list is skipped; the rest still play.
/// - The playing entry is mapped back to its album by searching forward from the cursor, plus one
///   step back for "previous". Anything else means the player wrapped or left the batch.
/// - When the batch's last album starts, the next batch should be pre-fetched (once).
/// - Seeking to another track of the batch moves the cursor and nothing else.
public struct AlbumQueueManager: Equatable, Sendable {
    /// Albums per batch: enough music to keep going, few enough lookups to start quickly.
    public static let batchSize = 5

    public let grid: GridContext
    /// Grid indices of the current batch.
    public private(set) var batchRange: Range<Int>
    /// The current batch's queue, as handed to the player.
    public private(set) var entries: [QueueEntry] = []
    /// Index in `entries` of the entry playing now.
    public private(set) var cursor: Int?
    /// Albums of the current batch that had no track list and were left out of `entries`.
    public private(set) var skippedAlbumIDs: [Int64] = []
    /// False once stopped: no more batches follow.
    public private(set) var isAutoAdvancing = true
    /// Whether this batch has already asked for the next one to be pre-fetched.
    public private(set) var prefetchRequested = false

    public init(grid: GridContext) {
        self.grid = grid
        self.batchRange = Self.batch(startingAt: grid.tappedIndex, gridCount: grid.albumIDs.count)
    }

    // MARK: - Batches

    /// Albums of the current batch, in grid order.
    public var batchAlbumIDs: [Int64] { Array(grid.albumIDs[batchRange]) }

    /// Grid indices of the batch after this one, or nil at the end of the grid (or once stopped).
    public var nextBatchRange: Range<Int>? {
        let start = batchRange.upperBound
        guard isAutoAdvancing, start < grid.albumIDs.count else { return nil }
        return Self.batch(startingAt: start, gridCount: grid.albumIDs.count)
    }

    /// Albums of the next batch (empty at the end of the grid): what a pre-fetch should load.
    public var nextBatchAlbumIDs: [Int64] {
        nextBatchRange.map { Array(grid.albumIDs[$0]) } ?? []
    }

    /// Builds the batch's queue from track lists keyed by album id. Albums missing from
    /// `trackLists`, or with an empty list, are skipped. Tracks are sorted into canonical order
    /// whatever order they arrive in, so nothing can reorder an album.
    public mutating func fill(trackLists: [Int64: [Track]], files: [Int64: [TrackSlot: String]] = [:], gains: [Int64: Double] = [:]) {
        entries = []
        skippedAlbumIDs = []
        cursor = nil
        prefetchRequested = false
        for gridIndex in batchRange {
            let albumID = grid.albumIDs[gridIndex]
            guard let tracks = trackLists[albumID], !tracks.isEmpty else {
                skippedAlbumIDs.append(albumID)
                continue
            }
            let albumFiles = files[albumID]
            for track in Self.canonicalOrder(tracks) {
                let path = albumFiles?[TrackSlot(disc: track.disc, position: track.position)]
                entries.append(QueueEntry(gridIndex: gridIndex, albumID: albumID, track: track, filePath: path, albumGainDb: gains[albumID]))
            }
        }
    }

    /// Moves on to the next batch of the grid; its queue is empty until `fill` is called.
    /// Returns false at the end of the grid or once stopped.
    public mutating func advanceToNextBatch() -> Bool {
        guard let next = nextBatchRange else { return false }
        batchRange = next
        entries = []
        skippedAlbumIDs = []
        cursor = nil
        prefetchRequested = false
        return true
    }

    /// Ends auto-advance: the cursor is cleared and no further batch follows.
    public mutating func stop() {
        isAutoAdvancing = false
        cursor = nil
    }

    // MARK: - Tracks

    /// The entry playing now.
    public var currentEntry: QueueEntry? { cursor.map { entries[$0] } }

    /// The album playing now.
    public var currentAlbumID: Int64? { currentEntry?.albumID }

    /// Index in `entries` of an album's `trackIndex`-th track (canonical order) in this batch.
    /// The first occurrence of the album is used if a grid holds it twice.
    public func entryIndex(ofAlbum albumID: Int64, track trackIndex: Int = 0) -> Int? {
        guard let first = entries.firstIndex(where: { $0.albumID == albumID }) else { return nil }
        let gridIndex = entries[first].id.gridIndex
        let index = first + trackIndex
        guard trackIndex >= 0, entries.indices.contains(index), entries[index].id.gridIndex == gridIndex else { return nil }
        return index
    }

    /// The entry of an album's track by disc and position, if the batch holds it.
    public func entryIndex(ofAlbum albumID: Int64, slot: TrackSlot) -> Int? {
        entries.firstIndex { $0.albumID == albumID && $0.track.disc == slot.disc && $0.track.position == slot.position }
    }

    /// Puts the cursor on the entry playback starts from (a fresh batch).
    @discardableResult
    public mutating func start(at index: Int) -> TrackChange {
        guard entries.indices.contains(index) else { return .wrapped }
        cursor = nil
        return moveCursor(to: index)
    }

    /// Maps the entry the player reports back into the batch.
    ///
    /// Searches forward from the cursor (the current entry included); with `checkBackward`, also
    /// exactly one step back, which is where "previous" lands. A wrap from the last entry to the
    /// first is more than one step back, so it is reported as not found rather than as a skip.
    public mutating func trackDidChange(to entry: QueueEntry, checkBackward: Bool = false) -> TrackChange {
        let from = cursor ?? 0
        if from < entries.count, let index = entries[from...].firstIndex(where: { $0.id == entry.id }) {
            return moveCursor(to: index)
        }
        if checkBackward, let cursor, cursor > 0, entries[cursor - 1].id == entry.id {
            return moveCursor(to: cursor - 1)
        }
        return .wrapped
    }

    /// Repositions the cursor within the batch (a tap on another track of a queued album).
    /// Batch, auto-advance and pre-fetch state are untouched. Nil when `index` is outside the batch.
    public mutating func seekToTrack(at index: Int) -> TrackChange? {
        guard entries.indices.contains(index) else { return nil }
        return moveCursor(to: index)
    }

    // MARK: - Private

    private mutating func moveCursor(to index: Int) -> TrackChange {
        let previousSlot = cursor.map { entries[$0].id.gridIndex }
        cursor = index
        let entry = entries[index]
        var prefetch = false
        // The last album that actually has tracks counts as the batch's last album.
        if entry.id.gridIndex == entries.last?.id.gridIndex, nextBatchRange != nil, !prefetchRequested {
            prefetchRequested = true
            prefetch = true
        }
        return TrackChange(
            found: true,
            entryIndex: index,
            albumID: entry.albumID,
            albumChanged: previousSlot != entry.id.gridIndex,
            shouldPrefetchNextBatch: prefetch
        )
    }

    private static func batch(startingAt start: Int, gridCount: Int) -> Range<Int> {
        start..<min(start + batchSize, gridCount)
    }

    /// Disc, then position; the stored id breaks ties so the order is always the same.
    static func canonicalOrder(_ tracks: [Track]) -> [Track] {
        tracks.sorted { ($0.disc, $0.position, $0.id ?? 0) < ($1.disc, $1.position, $1.id ?? 0) }
    }
}

/// A track's place in its album: the key that ties a track to its file.
public struct TrackSlot: Hashable, Sendable {
    public var disc: Int
    public var position: Int

    public init(disc: Int, position: Int) {
        self.disc = disc
        self.position = position
    }
}
