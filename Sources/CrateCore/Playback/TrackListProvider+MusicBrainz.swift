import Foundation

extension TrackListProvider {
    /// Looks the album's release up on MusicBrainz and saves the track list, so the next play
    /// (and the Tracks tab) has it offline.
    public static func musicBrainz(_ client: MusicBrainzClient, database: AppDatabase) -> TrackListProvider {
        TrackListProvider { album in
            guard let albumID = album.id, let releaseID = album.musicBrainzReleaseID.flatMap(MBID.init(validating:)) else {
                throw PlaybackError.noTrackList(albumID: album.id ?? -1)
            }
            let details = try await client.release(releaseID)
            let tracks = details.makeTracks(albumID: albumID)
            guard !tracks.isEmpty else { throw PlaybackError.noTrackList(albumID: albumID) }
            try database.saveReleaseDetails(albumID: albumID, details: details)
            return try database.tracks(forAlbum: albumID)
        }
    }
}
