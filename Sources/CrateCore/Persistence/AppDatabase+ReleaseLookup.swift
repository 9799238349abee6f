import Foundation
import GRDB

/// How an album's MusicBrainz search went, for saving its scan.
public enum ReleaseLookup: Sendable, Equatable {
    /// Saved as given (a match, or a search that found nothing: nothing more to fetch).
    case settled
    /// The search could not be made (a server error, silence, a reply that could not be read):
    /// the album is saved with its track list and artwork *pending* and no release id, and the
    /// next repair pass searches again.
    case pending
    /// Found from the provider's answer `title` by `artist`: an album saved earlier under that
    /// answer while its search was pending is merged into this one.
    case resolved(title: String, artist: String)
}

extension AppDatabase {
    // MARK: - Pending MusicBrainz searches

    /// Whether `album` is waiting for its MusicBrainz search: no release id, and a track list
    /// still to fetch (an album whose search found nothing is saved `unavailable`).
    public static func isAwaitingRelease(_ album: Album) -> Bool {
        album.musicBrainzReleaseID == nil && (album.tracksStatus == .pending || album.tracksStatus == .failed)
    }

    /// The search for pending album `albumID` found `resolved` (with its release id). In one
    /// transaction: when the crate already has that release, the pending album's scans move to it
    /// and the pending album goes (never two albums for one release); otherwise the pending album
    /// takes the release's id and names, with its track list and artwork still to fetch.
    /// Returns the album that now stands for the release.
    public func resolvePendingRelease(albumID: Int64, to resolved: Album) throws -> Album {
        try checkWritable()
        return try guardedWrite { db in
            guard var pending = try Album.fetchOne(db, key: albumID) else { throw CrateError.notFound("The album") }
            guard let mbid = resolved.musicBrainzReleaseID else { return pending }
            if let existing = try Album.filter(Album.Columns.mbReleaseID == mbid).fetchOne(db), let existingID = existing.id,
               existingID != albumID {
                try Self.merge(albumID: albumID, into: existingID, in: db)
                return existing
            }
            pending.musicBrainzReleaseID = mbid
            pending.musicBrainzReleaseGroupID = resolved.musicBrainzReleaseGroupID ?? pending.musicBrainzReleaseGroupID
            pending.title = resolved.title
            pending.artist = resolved.artist
            pending.artistSortKey = SortKey.artist(resolved.artist)
            pending.year = resolved.year ?? pending.year
            pending.label = resolved.label ?? pending.label
            pending.tracksStatus = .pending
            if pending.artworkStatus != .available { pending.artworkStatus = .pending }
            try pending.update(db)
            try Self.resetGivenUpDetails(albumID: albumID, in: db)
            return pending
        }
    }

    /// The search for pending album `albumID` answered, and found no release: there is nothing to
    /// fetch (track list and artwork `unavailable`), as for a search that found nothing at scan time.
    public func settlePendingReleaseWithoutMatch(albumID: Int64) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: """
                UPDATE album SET tracksStatus = ?, artworkStatus = CASE WHEN artworkStatus = ? THEN artworkStatus ELSE ? END
                WHERE id = ? AND mbReleaseId IS NULL
                """, arguments: [TrackListStatus.unavailable.rawValue, ArtworkStatus.available.rawValue,
                                 ArtworkStatus.unavailable.rawValue, albumID])
        }
    }

    /// An album saved earlier under the provider's answer `title` by `artist` whose search is
    /// still pending (the same photo scanned again, or the same album in another photo).
    static func pendingReleaseAlbum(title: String, artist: String, in db: Database) throws -> Album? {
        try Album.fetchOne(db, sql: """
            SELECT * FROM album WHERE mbReleaseId IS NULL AND tracksStatus IN (?, ?)
              AND title = ? COLLATE NOCASE AND artist = ? COLLATE NOCASE
            ORDER BY id LIMIT 1
            """, arguments: [TrackListStatus.pending.rawValue, TrackListStatus.failed.rawValue, title, artist])
    }

    /// Moves every scan and owned copy of `albumID` onto `targetID` (which stays wanted if
    /// either was, since the earlier date) and removes `albumID` (its tracks, hash, facts and
    /// links go with it: they describe a release `targetID` does not stand for).
    static func merge(albumID: Int64, into targetID: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE scan SET albumId = ? WHERE albumId = ?", arguments: [targetID, albumID])
        // What the user owns and wants is theirs, never a side effect of two albums becoming one.
        try db.execute(sql: "UPDATE album_copy SET albumId = ? WHERE albumId = ?", arguments: [targetID, albumID])
        try db.execute(sql: "UPDATE album SET wantedAt = (SELECT MIN(wantedAt) FROM album WHERE id IN (?, ?)) WHERE id = ?",
                       arguments: [albumID, targetID, targetID])
        _ = try Album.deleteOne(db, key: albumID)
    }
}
