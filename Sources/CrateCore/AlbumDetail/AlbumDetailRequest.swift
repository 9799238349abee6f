import GRDB

/// What the album pane reads of a crate album, in one snapshot: the album, its tracks in
/// canonical order, its Discogs link and its heart or ✕.
public struct AlbumDetailRequest: ReadRequest {
    public struct Answer: Equatable, Sendable {
        /// Nil when the album is not (or no longer) in the crate.
        public var album: Album?
        public var tracks: [Track] = []
        public var discogs: DiscogsLink?
        public var rating: AlbumRating?
    }

    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> Answer {
        guard let album = try Album.fetchOne(db, key: albumID) else { return Answer() }
        var answer = Answer(album: album)
        // A library the Discogs migration has not reached yet, or any read failure, just hides the button.
        if case .linked(let found) = (try? DiscogsLinkRequest(albumID: albumID).fetch(db)) ?? nil { answer.discogs = found }
        answer.tracks = try Track.filter(Track.Columns.albumID == albumID).order(Track.Columns.disc, Track.Columns.position).fetchAll(db)
        if let group = MBID(validating: album.musicBrainzReleaseGroupID) {
            answer.rating = (try? AlbumRatingsRequest().fetch(db))?[group]
        }
        return answer
    }
}
