import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Writes

    /// Saves a scan and its album in one transaction. An album already known by its MusicBrainz
    /// release id is reused (and its details refreshed); every scan is saved, duplicates included.
    @discardableResult
    public func saveScan(of album: Album, method: IdentificationMethod, confidence: Double? = nil, at date: Date = Date()) throws -> HistoryEntry {
        try checkWritable()
        return try guardedWrite { db in
            try Self.insertScan(of: album, method: method, confidence: confidence, at: date, in: db)
        }
    }

    /// Deletes one scan and returns it so it can be restored (undo). The album stays in the crate.
    @discardableResult
    public func deleteScan(id: Int64) throws -> Scan? {
        try checkWritable()
        return try writer.write { db in
            guard let scan = try Scan.fetchOne(db, key: id) else { return nil }
            try scan.delete(db)
            return scan
        }
    }

    /// Puts a deleted scan back with its original id and time (undo of `deleteScan`).
    public func restoreScan(_ scan: Scan) throws {
        try checkWritable()
        try writer.write { db in
            guard try Album.exists(db, key: scan.albumID) else {
                throw CrateError.notFound("The album of this scan")
            }
            var copy = scan
            try copy.insert(db)
        }
    }

    /// Replaces an album's track list.
    public func replaceTracks(_ tracks: [Track], forAlbum albumID: Int64) throws {
        try checkWritable()
        try writer.write { db in
            try Track.filter(Track.Columns.albumID == albumID).deleteAll(db)
            for var track in tracks {
                track.id = nil
                track.albumID = albumID
                try track.insert(db)
            }
        }
    }

    /// Stores (or replaces) a review under its key.
    public func saveReview(_ review: Review) throws {
        try checkWritable()
        try writer.write { db in try review.save(db) }
    }

    /// The body of `saveScan`, for writes that save a scan together with something else.
    static func insertScan(of album: Album, method: IdentificationMethod, confidence: Double?, at date: Date, in db: Database) throws -> HistoryEntry {
        var stored = album
        if let mbid = album.musicBrainzReleaseID,
           let existing = try Album.filter(Album.Columns.mbReleaseID == mbid).fetchOne(db) {
            stored.id = existing.id
            stored.createdAt = existing.createdAt
            if stored.artworkStatus == .pending {
                stored.artworkStatus = existing.artworkStatus
                stored.artworkPath = existing.artworkPath
                stored.thumbnailPath = existing.thumbnailPath
            }
            try stored.update(db)
        } else {
            stored.id = nil
            try stored.insert(db)
        }
        guard let albumID = stored.id else { throw CrateError.notFound("The saved album") }
        var scan = Scan(albumID: albumID, scannedAt: date, method: method, confidence: confidence)
        try scan.insert(db)
        return HistoryEntry(scan: scan, album: stored)
    }

    func checkWritable() throws {
        if isReadOnly { throw CrateError.databaseReadOnly }
    }
}

extension AppDatabase {
    /// Records where an album's artwork stands (and its files when available).
    public func setArtwork(albumID: Int64, status: ArtworkStatus, artworkPath: String? = nil, thumbnailPath: String? = nil) throws {
        try checkWritable()
        try writer.write { db in
            guard var album = try Album.fetchOne(db, key: albumID) else { throw CrateError.notFound("The album") }
            album.artworkStatus = status
            if status == .available {
                album.artworkPath = artworkPath
                album.thumbnailPath = thumbnailPath
            }
            try album.update(db)
        }
    }

    /// Fills in what the MusicBrainz lookup knows (genres, label, year, release group) and the
    /// track list, in one transaction.
    public func saveReleaseDetails(albumID: Int64, genres: [String], label: String?, year: String?, releaseGroupID: String?, tracks: [Track]) throws {
        try checkWritable()
        try writer.write { db in
            guard var album = try Album.fetchOne(db, key: albumID) else { throw CrateError.notFound("The album") }
            if !genres.isEmpty { album.genres = Array(genres.prefix(10)) }
            if let label, !label.isEmpty { album.label = label }
            if let year, !year.isEmpty { album.year = year }
            if let releaseGroupID { album.musicBrainzReleaseGroupID = releaseGroupID }
            try album.update(db)
            if !tracks.isEmpty {
                try Track.filter(Track.Columns.albumID == albumID).deleteAll(db)
                for var track in tracks {
                    track.id = nil
                    track.albumID = albumID
                    try track.insert(db)
                }
            }
        }
    }
}
