import Foundation

/// Where real playback finds an album's audio files. `PlaybackStore` uses it when set; without
/// it (tests, `crate play --simulate-seconds`) the library's track lists play on the log player.
public struct AlbumFiles: Sendable {
    public var lookup: @Sendable (Album) throws -> AlbumFileMatch

    public init(lookup: @escaping @Sendable (Album) throws -> AlbumFileMatch) {
        self.lookup = lookup
    }

    /// Matches against the music folder index in `database` as it is at each lookup.
    public static func musicFolder(_ database: AppDatabase) -> AlbumFiles {
        AlbumFiles { album in
            AlbumMatcher(files: try database.readableMusicFiles()).match(album)
        }
    }

    /// The album's tracks and files, the folder they are in and the album gain their R128 tags
    /// give, or the error saying why it cannot play.
    public func resolve(_ album: Album) throws -> (tracks: [Track], files: [TrackSlot: String], directory: String, r128GainDb: Double?) {
        let albumID = album.id ?? -1
        switch try lookup(album) {
        case .none:
            throw AudioPlaybackError.notInMusicFolder(albumID: albumID)
        case .ambiguous(let candidates, _):
            throw AudioPlaybackError.ambiguousFiles(albumID: albumID, folders: candidates.map(\.directory))
        case .matched(let diskAlbum, _):
            var tracks: [Track] = []
            var files: [TrackSlot: String] = [:]
            for (track, file) in AlbumMatcher.tracks(of: diskAlbum, albumID: albumID) {
                tracks.append(track)
                files[TrackSlot(disc: track.disc, position: track.position)] = file.path
            }
            return (tracks, files, diskAlbum.directory, diskAlbum.r128AlbumGainDb)
        }
    }
}
