import Foundation

/// `crate music add`: albums in the music folder that no crate album matches are added to the
/// crate, with their track list from the files (disc/track order). An album whose files carry a
/// MusicBrainz release id (as Picard and beets tag them) has its artwork left pending: the repair
/// pass fetches it from the Cover Art Archive, and when the archive has none (404) uses the art
/// the files carry, as below (`ScanPipeline`). One without gets the art it carries itself — a
/// cover image in its folder or a picture embedded in its files (`MusicLocalArt`) — stored in the
/// artwork cache under a key made from the album's group key; with none usable, no artwork.
public enum MusicAlbumAdder {
    public struct Added: Equatable, Sendable, Codable {
        public var id: Int64?
        public var artist: String
        public var title: String
        public var directory: String
        public var tracks: Int
        /// Whether the Cover Art Archive can be asked (the files carry a release id).
        public var hasReleaseID: Bool
        /// Whether art from the folder or the files was stored.
        public var hasLocalArtwork: Bool = false
    }

    /// The albums on disk that no crate album matches (matched or ambiguous), in directory order.
    public static func candidates(database: AppDatabase) throws -> [DiskAlbum] {
        let matcher = AlbumMatcher(files: try database.readableMusicFiles())
        var claimed = Set<String>()
        for album in try database.allAlbums() {
            switch matcher.match(album) {
            case .matched(let disk, _): claimed.insert(disk.groupKey)
            case .ambiguous(let disks, _): claimed.formUnion(disks.map(\.groupKey))
            case .none: break
            }
        }
        return matcher.diskAlbums.filter { !claimed.contains($0.groupKey) }.sorted { $0.directory < $1.directory }
    }

    /// Adds every candidate (or only lists them with `dryRun`); with `groupKey`, only that
    /// album on disk (a wallet disc's id). With `artwork`, albums without a release id get their
    /// folder or embedded art.
    public static func add(database: AppDatabase, dryRun: Bool = false, groupKey: String? = nil, artwork: ArtworkCache? = nil,
                           preparer: ImagePreparer = ImagePreparer()) throws -> [Added] {
        try candidates(database: database).filter { groupKey == nil || $0.groupKey == groupKey }.map { disk in
            let releaseID = disk.musicBrainzAlbumID.flatMap { MBID(validating: $0) }
            let groupID = disk.musicBrainzReleaseGroupID.flatMap { MBID(validating: $0) }
            var added = Added(id: nil, artist: disk.artist, title: disk.title, directory: disk.directory,
                              tracks: disk.files.count, hasReleaseID: releaseID != nil)
            guard !dryRun else { return added }
            let tracks = AlbumMatcher.tracks(of: disk, albumID: 0).map { pair in
                ReleaseTrack(disc: pair.track.disc, position: pair.track.position, number: pair.track.number, title: pair.track.title,
                             durationMs: pair.track.durationMs, recordingID: pair.track.recordingID.flatMap { MBID(validating: $0) })
            }
            let album = Album(musicBrainzReleaseID: releaseID?.rawValue, musicBrainzReleaseGroupID: groupID?.rawValue,
                              title: disk.title, artist: disk.artist)
            added.id = try database.addToCrate(album, tracks: tracks)
            if releaseID == nil, let id = added.id {
                if let artwork, let prepared = MusicLocalArt.prepared(for: disk, preparer: preparer) {
                    let files = try artwork.storeLocal(prepared.large, thumbnail: prepared.thumbnail, identity: disk.groupKey)
                    try database.saveCoverHash(prepared.hash, forAlbum: id)
                    try database.setArtwork(albumID: id, status: .available, artworkPath: artwork.storedPath(for: files.artwork),
                                            thumbnailPath: files.thumbnail.map(artwork.storedPath(for:)))
                    added.hasLocalArtwork = true
                } else {
                    // Nothing to ask the Cover Art Archive with: no artwork rather than pending forever.
                    try database.setArtwork(albumID: id, status: .unavailable)
                }
            }
            return added
        }
    }
}
