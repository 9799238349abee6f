/// How many albums still wait for their track list or artwork, and how many were given up on.
public struct DetailsCounts: Sendable, Equatable {
    public var tracksPending: Int
    public var tracksFailed: Int
    public var artworkPending: Int
    public var artworkFailed: Int

    public init(tracksPending: Int, tracksFailed: Int, artworkPending: Int, artworkFailed: Int) {
        self.tracksPending = tracksPending
        self.tracksFailed = tracksFailed
        self.artworkPending = artworkPending
        self.artworkFailed = artworkFailed
    }
}
