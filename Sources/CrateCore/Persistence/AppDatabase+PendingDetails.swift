import Foundation
import GRDB

extension AppDatabase {
    // MARK: - Pending track lists and artwork (docs/reliability.md #20, #21)

    /// Claims `albumID`'s details for `claim` unless another live process holds them; true when
    /// `claim` holds them afterwards (it may already have).
    public func claimDetails(albumID: Int64, by claim: DetailsClaim = .current, at now: Date = Date()) throws -> Bool {
        try checkWritable()
        return try guardedWrite { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT detailsClaimedBy, detailsClaimedAt FROM album WHERE id = ?", arguments: [albumID]) else {
                return false
            }
            let owner: Int32? = row["detailsClaimedBy"]
            if owner != claim.owner, DetailsClaim.holds(owner: owner, since: row["detailsClaimedAt"], now: now) { return false }
            try db.execute(sql: "UPDATE album SET detailsClaimedBy = ?, detailsClaimedAt = ? WHERE id = ?", arguments: [claim.owner, now, albumID])
            return true
        }
    }

    /// Claims the oldest album with a track list or artwork still to fetch that nobody else is
    /// fetching, leaving out `skipping` (albums this pass already tried). Failed artwork counts
    /// while it has tries left; a failed track list waits for a re-scan or `resetFailedDetails`.
    public func claimNextPendingDetails(skipping: Set<Int64> = [], by claim: DetailsClaim = .current, at now: Date = Date()) throws -> PendingDetails? {
        try checkWritable()
        return try guardedWrite { db in
            let skipped = skipping.isEmpty ? "" : "AND id NOT IN (\(skipping.map { _ in "?" }.joined(separator: ",")))"
            var arguments: StatementArguments = [TrackListStatus.pending.rawValue, ArtworkStatus.pending.rawValue, ArtworkStatus.failed.rawValue,
                                                 DetailsClaim.maxAttempts]
            arguments += StatementArguments(Array(skipping))
            // Unclaimed albums first; a page of claimed ones is looked at too, in case their owner died.
            // The first condition is the partial index's own, in literals: SQLite reads
            // `album_pending_details` only when the query states it (with bound values it cannot
            // tell), and otherwise reads every album at each start-up (~0.1 s at 100 000).
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, tracksStatus, artworkStatus, detailsClaimedBy, detailsClaimedAt FROM album
                WHERE (tracksStatus IN ('pending', 'failed') OR artworkStatus IN ('pending', 'failed'))
                  AND (tracksStatus = ? OR artworkStatus = ? OR (artworkStatus = ? AND artworkAttempts < ?)) \(skipped)
                ORDER BY detailsClaimedBy IS NOT NULL, id LIMIT 32
                """, arguments: arguments)
            for row in rows {
                // Any live claim keeps the pass away, this process's own too: that is a scan
                // fetching the album right now.
                if DetailsClaim.holds(owner: row["detailsClaimedBy"], since: row["detailsClaimedAt"], now: now) { continue }
                let id: Int64 = row["id"]
                try db.execute(sql: "UPDATE album SET detailsClaimedBy = ?, detailsClaimedAt = ? WHERE id = ?", arguments: [claim.owner, now, id])
                guard let album = try Album.fetchOne(db, key: id) else { continue }
                let artwork: String = row["artworkStatus"]
                return PendingDetails(album: album, needsTracks: row["tracksStatus"] == TrackListStatus.pending.rawValue,
                                      needsArtwork: artwork == ArtworkStatus.pending.rawValue || artwork == ArtworkStatus.failed.rawValue)
            }
            return nil
        }
    }

    /// Lets go of `albumID`'s details (when `claim` still holds them).
    public func releaseDetailsClaim(albumID: Int64, by claim: DetailsClaim = .current) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE album SET detailsClaimedBy = NULL, detailsClaimedAt = NULL WHERE id = ? AND detailsClaimedBy = ?",
                           arguments: [albumID, claim.owner])
        }
    }

    /// Counts a failed track-list lookup; after `DetailsClaim.maxAttempts` the list is `failed`.
    /// Returns the status now stored.
    @discardableResult
    public func recordTrackListFailure(albumID: Int64, message: String) throws -> TrackListStatus {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: """
                UPDATE album SET tracksAttempts = tracksAttempts + 1, tracksError = ?,
                    tracksStatus = CASE WHEN tracksAttempts + 1 >= ? THEN ? ELSE ? END
                WHERE id = ? AND tracksStatus IN (?, ?)
                """, arguments: [message, DetailsClaim.maxAttempts, TrackListStatus.failed.rawValue, TrackListStatus.pending.rawValue, albumID,
                                 TrackListStatus.pending.rawValue, TrackListStatus.failed.rawValue])
            let stored = try String.fetchOne(db, sql: "SELECT tracksStatus FROM album WHERE id = ?", arguments: [albumID])
            return stored.flatMap(TrackListStatus.init(rawValue:)) ?? .pending
        }
    }

    /// Counts a failed artwork fetch and marks the artwork `failed` (retried while tries are left).
    public func recordArtworkFailure(albumID: Int64, message: String) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE album SET artworkAttempts = artworkAttempts + 1, artworkError = ?, artworkStatus = ? WHERE id = ?",
                           arguments: [message, ArtworkStatus.failed.rawValue, albumID])
        }
    }

    /// Gives every album that was given up on its tries back (`crate repair`, asked for by the
    /// user); returns how many albums that was.
    @discardableResult
    public func resetFailedDetails() throws -> Int {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: "UPDATE album SET tracksStatus = ?, tracksAttempts = 0 WHERE tracksStatus = ?",
                           arguments: [TrackListStatus.pending.rawValue, TrackListStatus.failed.rawValue])
            var changed = db.changesCount
            try db.execute(sql: "UPDATE album SET artworkAttempts = 0 WHERE artworkStatus = ? AND artworkAttempts > 0",
                           arguments: [ArtworkStatus.failed.rawValue])
            changed += db.changesCount
            return changed
        }
    }

    /// Albums with a track list or artwork still pending, and those given up on.
    public func detailsCounts() throws -> DetailsCounts {
        try reader.read { db in
            func count(_ sql: String, _ arguments: StatementArguments) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM album WHERE " + sql, arguments: arguments) ?? 0
            }
            return DetailsCounts(
                tracksPending: try count("tracksStatus = ?", [TrackListStatus.pending.rawValue]),
                tracksFailed: try count("tracksStatus = ?", [TrackListStatus.failed.rawValue]),
                artworkPending: try count("artworkStatus = ?", [ArtworkStatus.pending.rawValue]),
                artworkFailed: try count("artworkStatus = ?", [ArtworkStatus.failed.rawValue]))
        }
    }

    /// An explicit re-scan of an existing album gives what was given up on its tries back (its
    /// `failed` track list is already `pending` again in the saved row; docs/reliability.md #20).
    static func resetGivenUpDetails(albumID: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE album SET tracksAttempts = 0, artworkAttempts = 0 WHERE id = ?", arguments: [albumID])
    }
}

extension AppDatabase {
    // MARK: - Artwork whose files are gone

    /// Albums whose artwork is `available` but whose 500 px file is not in `artworkDirectory` any
    /// more (the cache folder was cleared) are set `pending` again, with their tries back, so the
    /// repair pass fetches the artwork again — and tier 0, which verifies against that file,
    /// recognises the cover again. Returns how many albums that was.
    @discardableResult
    public func markMissingArtworkPending(in artworkDirectory: URL) throws -> Int {
        try checkWritable()
        let rows = try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT id, artworkPath FROM album WHERE artworkStatus = ?", arguments: [ArtworkStatus.available.rawValue])
        }
        let missing: [Int64] = rows.compactMap { row in
            let stored: String? = row["artworkPath"]
            guard let url = ArtworkCache.url(forStoredPath: stored, in: artworkDirectory) else { return row["id"] }
            return FileManager.default.fileExists(atPath: url.path) ? nil : row["id"]
        }
        guard !missing.isEmpty else { return 0 }
        return try guardedWrite { db in
            var changed = 0
            for id in missing {
                try db.execute(sql: "UPDATE album SET artworkStatus = ?, artworkAttempts = 0 WHERE id = ? AND artworkStatus = ?",
                               arguments: [ArtworkStatus.pending.rawValue, id, ArtworkStatus.available.rawValue])
                changed += db.changesCount
            }
            return changed
        }
    }
}
