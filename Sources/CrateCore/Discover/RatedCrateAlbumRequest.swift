import GRDB

/// A crate album, and the album as the rating intents name it (nil when it has no release group).
public struct RatedCrateAlbumRequest: ReadRequest {
    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> (album: Album, rated: RatedAlbum?)? {
        guard let album = try Album.fetchOne(db, key: albumID) else { return nil }
        let rated = MBID(validating: album.musicBrainzReleaseGroupID).map {
            RatedAlbum(releaseGroupID: $0, title: album.title, artist: album.artist, releaseID: MBID(validating: album.musicBrainzReleaseID))
        }
        return (album, rated)
    }
}
