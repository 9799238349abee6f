import Foundation
import GRDB

extension AppDatabase {
    /// "Add to Crate" from the wall: the album goes into the crate without a photo scan, in one
    /// transaction with its tracks when they are known. An album already in the crate (same
    /// release, or same release group) is reused, so adding twice adds once. The art is left
    /// `pending`: the repair pass fetches it from the Cover Art Archive, like a scan's.
    /// Returns the album's id.
    @discardableResult
    public func addToCrate(_ album: Album, tracks: [ReleaseTrack] = [], facts: ReleaseFacts? = nil) throws -> Int64 {
        try checkWritable()
        return try guardedWrite { db in try Self.addToCrate(album, tracks: tracks, facts: facts, in: db) }
    }

    /// `addToCrate` inside a transaction the caller holds (an import that owns it in the same one).
    static func addToCrate(_ album: Album, tracks: [ReleaseTrack], facts: ReleaseFacts?, in db: Database) throws -> Int64 {
        if let release = album.musicBrainzReleaseID,
           let existing = try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE mbReleaseId = ? LIMIT 1", arguments: [release]) {
            return existing
        }
        if let group = album.musicBrainzReleaseGroupID,
           let existing = try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE mbReleaseGroupId = ? ORDER BY id LIMIT 1", arguments: [group]) {
            return existing
        }
        var stored = album
        stored.id = nil
        stored.artworkStatus = .pending
        stored.artworkPath = nil
        stored.thumbnailPath = nil
        stored.createdAt = Date()
        // Pending work recorded in the same transaction: the repair pass finishes it.
        stored.tracksStatus = !tracks.isEmpty ? .ok : (stored.musicBrainzReleaseID == nil ? .unavailable : .pending)
        try stored.insert(db)
        guard let albumID = stored.id else { throw CrateError.notFound("The added album") }
        for track in tracks {
            var row = Track(albumID: albumID, disc: track.disc, position: track.position, number: track.number, title: track.title,
                            durationMs: track.durationMs, recordingID: track.recordingID?.rawValue)
            try row.insert(db)
        }
        if let facts, facts.releaseID == stored.musicBrainzReleaseID { try Self.storeFacts(facts, albumID: albumID, in: db) }
        return albumID
    }
}
