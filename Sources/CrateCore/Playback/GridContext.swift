/// The grid an album was played from: its albums in display order and the one the user picked.
///
/// Playback continues with the albums after the tapped one (docs/decisions/0003-grid-playback-in-batches.md); it never wraps to the start.
public struct GridContext: Equatable, Sendable {
    public let albumIDs: [Int64]
    public let tappedIndex: Int

    /// Nil when `tappedIndex` is not inside `albumIDs`.
    public init?(albumIDs: [Int64], tappedIndex: Int) {
        guard albumIDs.indices.contains(tappedIndex) else { return nil }
        self.albumIDs = albumIDs
        self.tappedIndex = tappedIndex
    }

    /// The grid with `albumID` tapped (its first occurrence); nil when the grid does not hold it.
    public init?(albumIDs: [Int64], tapped albumID: Int64) {
        guard let index = albumIDs.firstIndex(of: albumID) else { return nil }
        self.init(albumIDs: albumIDs, tappedIndex: index)
    }

    /// An album played on its own: no grid, so nothing follows it.
    public static func single(_ albumID: Int64) -> GridContext {
        GridContext(albumIDs: [albumID], tappedIndex: 0)!
    }

    public var tappedAlbumID: Int64 { albumIDs[tappedIndex] }
}
