import Foundation
import GRDB

/// "Which pressing": an album switched to another release of its release group.
extension AppDatabase {
    /// Switches album `albumID` to the looked-up release `details` (a release of the album's own
    /// release group), in one transaction: the album takes the release's id, title, artist, year
    /// and label, its track list and release facts are replaced by the release's, and its artwork
    /// is `pending` again with no files and no cover hash — the old pressing's cover never stands
    /// for the new one, in tier 0 or the grid, and the next fetch (or the repair pass) gets the
    /// new release's art. The old files stay in the cache (keyed by the old release, and shared
    /// with nothing else that would miss them). Owned copies, the wanted date and scans stay with
    /// the album; the Discogs link is forgotten, to be looked up again for this pressing.
    ///
    /// When another crate album already stands for that release, this album is merged into it
    /// (its scans, copies and wanted date move; see `merge`) and that album is returned: one
    /// release is never two albums. Throws `PressingError` (changing nothing) when the album is
    /// gone, has no release group, or the release belongs to another group.
    @discardableResult
    public func switchPressing(albumID: Int64, to details: ReleaseDetails) throws -> Album {
        try checkWritable()
        return try guardedWrite { db in
            guard var album = try Album.fetchOne(db, key: albumID) else { throw PressingError.albumNotFound }
            guard let group = album.musicBrainzReleaseGroupID else { throw PressingError.noReleaseGroup }
            guard let releaseID = details.album.musicBrainzReleaseID,
                  details.album.musicBrainzReleaseGroupID == group else { throw PressingError.notAPressing }
            if album.musicBrainzReleaseID == releaseID {
                // The pressing it already is: only the stored facts are refreshed.
                try Self.storeRelease(details, albumID: albumID, in: db)
                return try Album.fetchOne(db, key: albumID) ?? album
            }
            if let other = try Album.filter(Album.Columns.mbReleaseID == releaseID).fetchOne(db), let otherID = other.id {
                try Self.merge(albumID: albumID, into: otherID, in: db)
                try Self.storeRelease(details, albumID: otherID, in: db)
                return try Album.fetchOne(db, key: otherID) ?? other
            }
            album.musicBrainzReleaseID = releaseID
            if !details.album.title.isEmpty { album.title = details.album.title }
            if !details.album.artist.isEmpty {
                album.artist = details.album.artist
                album.artistSortKey = details.album.artistSortKey
            }
            album.year = details.album.year ?? album.year
            // The new pressing's label, none included: the old one's would be wrong.
            album.label = details.album.label
            if !details.album.genres.isEmpty { album.genres = Array(details.album.genres.prefix(10)) }
            album.artworkStatus = .pending
            album.artworkPath = nil
            album.thumbnailPath = nil
            try album.update(db)
            try db.execute(sql: "UPDATE album SET artworkAttempts = 0, artworkError = NULL WHERE id = ?", arguments: [albumID])
            try db.execute(sql: "DELETE FROM cover_hash WHERE albumId = ?", arguments: [albumID])
            try db.execute(sql: "DELETE FROM discogs_link WHERE albumId = ?", arguments: [albumID])
            try Self.storeRelease(details, albumID: albumID, in: db)
            return try Album.fetchOne(db, key: albumID) ?? album
        }
    }

    /// The release's track list (replacing the album's, even by none: the old pressing's tracks
    /// are not this one's) and its facts, inside the caller's transaction.
    private static func storeRelease(_ details: ReleaseDetails, albumID: Int64, in db: Database) throws {
        try Track.filter(Track.Columns.albumID == albumID).deleteAll(db)
        let tracks = details.makeTracks(albumID: albumID)
        for var track in tracks {
            try track.insert(db)
        }
        try db.execute(sql: "UPDATE album SET tracksAttempts = 0 WHERE id = ?", arguments: [albumID])
        try setTracksStatus(tracks.isEmpty ? .unavailable : .ok, albumID: albumID, in: db)
        try storeFacts(details.facts, albumID: albumID, in: db)
    }
}
