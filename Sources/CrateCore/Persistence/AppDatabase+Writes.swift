import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Writes

    /// Saves a scan, its album and its runners-up (`candidates`, best first) in one transaction.
    /// An album already known by its MusicBrainz release id is reused (and its details
    /// refreshed); every scan is saved, duplicates included.
    @discardableResult
    public func saveScan(of album: Album, method: IdentificationMethod, confidence: Double? = nil, at date: Date = Date(),
                         candidates: [ScanCandidate] = [], lookup: ReleaseLookup = .settled) throws -> HistoryEntry {
        try checkWritable()
        return try guardedWrite { db in
            try Self.insertScan(of: album, method: method, confidence: confidence, at: date, candidates: candidates, lookup: lookup, in: db)
        }
    }

    /// "Not this album?", in one transaction: scan `scanID` is replaced by a scan of `album`.
    /// The new scan keeps every candidate the old one had, the chosen one included (with its
    /// score: reading a scan's candidates leaves out its own album), and offers the replaced
    /// album back unscored ("First answer") only when it is not among them — that is, when it
    /// was the scan's first answer. So swapping back and forth keeps every label right. The
    /// replaced album leaves the crate when no scan points at it any more (see
    /// `removeIfAbandoned`), so a wrong answer does not linger in the grid.
    /// Throws `CrateError.notFound` (changing nothing) when the scan is gone.
    @discardableResult
    public func replaceScan(id scanID: Int64, with album: Album, method: IdentificationMethod = .manual, at date: Date = Date()) throws -> HistoryEntry {
        try checkWritable()
        return try guardedWrite { db in
            guard let old = try Scan.fetchOne(db, key: scanID) else { throw CrateError.notFound("The scan to replace") }
            guard let replaced = try Album.fetchOne(db, key: old.albumID) else { throw CrateError.notFound("The album of this scan") }
            let kept = try Self.fetchStoredCandidates(forScan: scanID, in: db)
            var offeredBack = replaced
            offeredBack.id = nil
            let candidates = kept.contains { ScanCandidate.sameRelease($0.album, replaced) }
                ? kept : kept + [ScanCandidate(album: offeredBack, score: nil)]
            try old.delete(db)  // Its candidates go with it (cascade).
            let entry = try Self.insertScan(of: album, method: method, confidence: nil, at: date, candidates: candidates, in: db)
            try Self.removeIfAbandoned(albumID: old.albumID, in: db)
            return entry
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
            // Undo pressed twice (or from two places): the scan is back once.
            if let id = scan.id, try Scan.exists(db, key: id) { return }
            var copy = scan
            try copy.insert(db)
        }
    }

    /// Replaces an album's track list (and marks it `ok`, or `unavailable` when empty).
    public func replaceTracks(_ tracks: [Track], forAlbum albumID: Int64) throws {
        try checkWritable()
        try writer.write { db in
            try Track.filter(Track.Columns.albumID == albumID).deleteAll(db)
            for var track in tracks {
                track.id = nil
                track.albumID = albumID
                try track.insert(db)
            }
            try Self.setTracksStatus(tracks.isEmpty ? .unavailable : .ok, albumID: albumID, in: db)
        }
    }

    /// For an album with no release to look up: its status says whether it has a track list at
    /// all. A list it already has (stored by other means) is kept, never replaced by nothing.
    public func settleTrackListWithoutRelease(albumID: Int64) throws {
        try checkWritable()
        try writer.write { db in
            let stored = try Track.filter(Track.Columns.albumID == albumID).fetchCount(db)
            try Self.setTracksStatus(stored > 0 ? .ok : .unavailable, albumID: albumID, in: db)
        }
    }

    /// Stores (or replaces) a review under its key.
    public func saveReview(_ review: Review) throws {
        try checkWritable()
        try writer.write { db in try review.save(db) }
    }

    /// The body of `saveScan`, for writes that save a scan together with something else.
    /// `lookup` says how the MusicBrainz search went: a pending one keeps the album's track list
    /// and artwork pending (and reuses an album already waiting under the same answer); a
    /// resolved one takes in the album that waited under the answer it was resolved from.
    static func insertScan(of album: Album, method: IdentificationMethod, confidence: Double?, at date: Date,
                           candidates: [ScanCandidate] = [], lookup: ReleaseLookup = .settled, in db: Database) throws -> HistoryEntry {
        var stored = album
        if case .pending = lookup, album.musicBrainzReleaseID == nil {
            stored.tracksStatus = .pending
            stored.artworkStatus = .pending
            if let waiting = try pendingReleaseAlbum(title: album.title, artist: album.artist, in: db) {
                // The same answer again while its search is still pending: one album, not two.
                stored = waiting
                stored.tracksStatus = .pending
                try stored.update(db)
                try resetGivenUpDetails(albumID: waiting.id ?? -1, in: db)
            } else {
                stored.id = nil
                try stored.insert(db)
            }
        } else if let mbid = album.musicBrainzReleaseID,
           let existing = try Album.filter(Album.Columns.mbReleaseID == mbid).fetchOne(db) {
            stored.id = existing.id
            stored.createdAt = existing.createdAt
            if stored.artworkStatus == .pending {
                stored.artworkStatus = existing.artworkStatus
                stored.artworkPath = existing.artworkPath
                stored.thumbnailPath = existing.thumbnailPath
            }
            // A track list given up on is pending again: scanning the album is asking for it.
            stored.tracksStatus = existing.tracksStatus == .failed ? .pending : existing.tracksStatus
            try stored.update(db)
            try resetGivenUpDetails(albumID: existing.id ?? -1, in: db)
        } else {
            stored.id = nil
            // Recorded as pending work in this transaction (docs/reliability.md #20): whatever
            // happens after the save, the next run knows the track list is still to fetch.
            if stored.tracksStatus == .pending, stored.musicBrainzReleaseID == nil { stored.tracksStatus = .unavailable }
            try stored.insert(db)
        }
        guard let albumID = stored.id else { throw CrateError.notFound("The saved album") }
        if case .resolved(let title, let artist) = lookup, stored.musicBrainzReleaseID != nil,
           let waiting = try pendingReleaseAlbum(title: title, artist: artist, in: db), let waitingID = waiting.id, waitingID != albumID {
            // Saved earlier under the same answer while MusicBrainz could not be asked: its scans join this album.
            try merge(albumID: waitingID, into: albumID, in: db)
        }
        var scan = Scan(albumID: albumID, scannedAt: date, method: method, confidence: confidence)
        try scan.insert(db)
        guard let scanID = scan.id else { throw CrateError.notFound("The saved scan") }
        // Counted for the usage meter in the same transaction: once per saved scan, never twice.
        if let tier = ScanTier(method: method) { try insertScanUsage(tier: tier, found: true, at: date, in: db) }
        for (rank, candidate) in candidates.enumerated() {
            try ScanCandidateRow(scanID: scanID, rank: rank, candidate: candidate).insert(db)
        }
        return HistoryEntry(scan: scan, album: stored)
    }

    /// The rule for an album whose last scan was just replaced: it leaves the crate (tracks,
    /// cover hash and search entry go with it) when no scan points at it any more.
    ///
    /// Favourites and plays would keep it too, but neither is in the database yet (plays are
    /// only in the playback log file); when they are, check them here. Returns whether it went.
    @discardableResult
    static func removeIfAbandoned(albumID: Int64, in db: Database) throws -> Bool {
        let scans = try Scan.filter(Scan.Columns.albumID == albumID).fetchCount(db)
        guard scans == 0 else { return false }
        // An album the user owns or wants stays, scanned or not.
        guard try !Self.isInCollection(albumID: albumID, in: db) else { return false }
        return try Album.deleteOne(db, key: albumID)
    }

    /// A scan's runners-up, best first, without the album the scan now shows (a scan switched
    /// by "Not this album?" keeps the chosen candidate's row for its score).
    static func fetchCandidates(forScan scanID: Int64, in db: Database) throws -> [ScanCandidate] {
        let all = try fetchStoredCandidates(forScan: scanID, in: db)
        guard let scan = try Scan.fetchOne(db, key: scanID), let shown = try Album.fetchOne(db, key: scan.albumID) else { return all }
        return all.filter { !ScanCandidate.sameRelease($0.album, shown) }
    }

    static func fetchStoredCandidates(forScan scanID: Int64, in db: Database) throws -> [ScanCandidate] {
        try ScanCandidateRow
            .filter(ScanCandidateRow.Columns.scanID == scanID)
            .order(ScanCandidateRow.Columns.rank)
            .fetchAll(db)
            .map(\.candidate)
    }

    func checkWritable() throws {
        if damageFound.withLock({ $0 }) { throw CrateError.libraryDamaged(path: fileURL?.path ?? "memory") }
        switch readOnlyReason {
        case nil: return
        case .newerVersion: throw CrateError.databaseReadOnly
        case .directoryNotWritable(let directory): throw CrateError.databaseDirectoryReadOnly(directory: directory)
        case .diskFull(let directory): throw CrateError.diskFull(path: directory)
        }
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

    /// Fills in what the MusicBrainz lookup knows (genres, label, year, release group, the
    /// release's facts) and the track list, in one transaction. With `releaseID`, nothing is
    /// written unless the album still stands for that release: a lookup started before the
    /// album was switched to another pressing must not bring the old pressing's tracks back.
    public func saveReleaseDetails(albumID: Int64, genres: [String], label: String?, year: String?, releaseGroupID: String?, tracks: [Track],
                                   facts: ReleaseFacts? = nil, releaseID: String? = nil) throws {
        try checkWritable()
        try writer.write { db in
            guard var album = try Album.fetchOne(db, key: albumID) else { throw CrateError.notFound("The album") }
            if let releaseID, album.musicBrainzReleaseID != releaseID {
                Log.notice("album \(albumID) is another pressing now; the lookup of \(releaseID) is not saved")
                return
            }
            if let facts { try Self.storeFacts(facts, albumID: albumID, in: db) }
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
            // A release that lists no tracks has nothing more to fetch; one already here stays ok.
            let hasTracks = try !tracks.isEmpty || Track.filter(Track.Columns.albumID == albumID).fetchCount(db) > 0
            try Self.setTracksStatus(hasTracks ? .ok : .unavailable, albumID: albumID, in: db)
        }
    }

    /// Saves a whole lookup: the album's details, its track list and its release facts.
    public func saveReleaseDetails(albumID: Int64, details: ReleaseDetails) throws {
        try saveReleaseDetails(albumID: albumID, genres: details.album.genres, label: details.album.label, year: details.album.year,
                               releaseGroupID: details.album.musicBrainzReleaseGroupID, tracks: details.makeTracks(albumID: albumID),
                               facts: details.facts, releaseID: details.album.musicBrainzReleaseID)
    }

    static func setTracksStatus(_ status: TrackListStatus, albumID: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE album SET tracksStatus = ?, tracksError = NULL WHERE id = ?", arguments: [status.rawValue, albumID])
    }
}
