/// One album whose track list or artwork is still to fetch, claimed by this process for the
/// repair pass (see `AppDatabase.claimNextPendingDetails`).
public struct PendingDetails: Sendable, Equatable {
    public var album: Album
    public var needsTracks: Bool
    public var needsArtwork: Bool

    public init(album: Album, needsTracks: Bool, needsArtwork: Bool) {
        self.album = album
        self.needsTracks = needsTracks
        self.needsArtwork = needsArtwork
    }
}
