import Foundation
import GRDB

extension AppDatabase {
    /// The tables the wall page shows.
    public static let wallTables: Set<String> = ["wall_state", "wall_item", "album_rating"]

    // MARK: - The stored wall (its reads are request types in `Discover/`)

    /// Remembers the dial without touching the tiles (the refresh that follows replaces them).
    public func setWallDial(_ dial: CrateDialPosition) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "INSERT INTO wall_state (id, dial) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET dial = excluded.dial",
                           arguments: [dial.rawValue])
        }
    }

    /// Replaces the stored wall in one transaction (`append`: adds the tiles after the shown
    /// ones, for "more"). Art already cached for a release group is kept.
    public func saveWall(dial: CrateDialPosition, items: [WallItem], unavailable: [WallUnavailable], append: Bool = false, at date: Date = Date()) throws {
        try checkWritable()
        let unavailableJSON = String(decoding: try JSONEncoder().encode(unavailable), as: UTF8.self)
        try guardedWrite { db in
            try Self.writeWallItems(db, items, append: append)
            try db.execute(sql: """
                INSERT INTO wall_state (id, dial, builtAt, unavailable) VALUES (1, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET dial = excluded.dial, builtAt = excluded.builtAt, unavailable = excluded.unavailable
                """, arguments: [dial.rawValue, date, unavailableJSON])
        }
    }

    /// Puts a finished wall in place of the wall shown while one of its sources was still
    /// answering, in one transaction, only when the stored tiles are still exactly `expecting`
    /// (no other refresh or "more" came in between). Returns whether it did.
    @discardableResult
    public func replaceWall(expecting: [MBID], with items: [WallItem], unavailable: [WallUnavailable]) throws -> Bool {
        try checkWritable()
        let unavailableJSON = String(decoding: try JSONEncoder().encode(unavailable), as: UTF8.self)
        return try guardedWrite { db in
            let stored = try String.fetchAll(db, sql: "SELECT releaseGroupId FROM wall_item ORDER BY position")
            guard stored == expecting.map(\.rawValue) else { return false }
            try Self.writeWallItems(db, items, append: false)
            try db.execute(sql: "UPDATE wall_state SET unavailable = ? WHERE id = 1", arguments: [unavailableJSON])
            return true
        }
    }

    /// Writes the tiles (after the stored ones with `append`, else in their place), keeping art
    /// already cached for a release group.
    private static func writeWallItems(_ db: Database, _ items: [WallItem], append: Bool) throws {
        var cached: [String: (String?, String)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT releaseGroupId, artworkPath, artworkStatus FROM wall_item WHERE artworkStatus != 'pending'") {
            cached[row["releaseGroupId"]] = (row["artworkPath"], row["artworkStatus"])
        }
        var start = 0
        if append {
            start = (try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM wall_item")) ?? 0
        } else {
            try db.execute(sql: "DELETE FROM wall_item")
        }
        for (offset, item) in items.enumerated() {
            let art = cached[item.releaseGroupID.rawValue]
            try db.execute(sql: """
                INSERT INTO wall_item (position, signal, releaseGroupId, title, artist, releaseId, artUrl, artworkPath, artworkStatus)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [start + offset, item.signal.rawValue, item.releaseGroupID.rawValue, item.title, item.artist,
                                 item.releaseID?.rawValue, item.artURL?.absoluteString, art?.0, art?.1 ?? ArtworkStatus.pending.rawValue])
        }
    }

    /// Records a tile's cached art (every tile of that release group).
    public func setWallArtwork(releaseGroupID: MBID, status: ArtworkStatus, path: String?) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE wall_item SET artworkStatus = ?, artworkPath = ? WHERE releaseGroupId = ?",
                           arguments: [status.rawValue, path, releaseGroupID.rawValue])
        }
    }

    // MARK: - Favourites and dislikes

    /// Sets (or with nil removes) the album's rating. A favourite replaces a dislike and the
    /// other way round (one row per release group). With `feedback`, the change is queued for
    /// ListenBrainz in the same transaction, and unsent older feedback for the album is
    /// superseded, so only the latest word on it is sent. Returns whether anything changed.
    @discardableResult
    public func rate(_ album: RatedAlbum, _ rating: AlbumRating?, feedback: Bool, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        return try guardedWrite { db in
            let group = album.releaseGroupID.rawValue
            let previous = try Int.fetchOne(db, sql: "SELECT rating FROM album_rating WHERE releaseGroupId = ?", arguments: [group])
            guard previous != rating?.rawValue else { return false }
            if let rating {
                try db.execute(sql: """
                    INSERT INTO album_rating (releaseGroupId, rating, title, artist, releaseId, ratedAt, artistMbids) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(releaseGroupId) DO UPDATE SET rating = excluded.rating, title = excluded.title, artist = excluded.artist,
                        releaseId = COALESCE(excluded.releaseId, album_rating.releaseId), ratedAt = excluded.ratedAt,
                        artistMbids = COALESCE(excluded.artistMbids, album_rating.artistMbids)
                    """, arguments: [group, rating.rawValue, album.title, album.artist, album.releaseID?.rawValue, date,
                                     album.artistIDs.isEmpty ? nil : album.artistIDs.map(\.rawValue).joined(separator: " ")])
            } else {
                try db.execute(sql: "DELETE FROM album_rating WHERE releaseGroupId = ?", arguments: [group])
            }
            if feedback {
                // A row being sent right now (leased) finishes first; the new one waits behind it.
                try db.execute(sql: """
                    UPDATE feedback_outbox SET state = 'superseded', updatedAt = ?
                    WHERE releaseGroupId = ? AND state = 'pending' AND (leaseOwner IS NULL OR leaseExpiresAt <= ?)
                    """, arguments: [date, group, date.timeIntervalSince1970])
                try db.execute(sql: """
                    INSERT INTO feedback_outbox (releaseGroupId, releaseId, score, state, createdAt, updatedAt) VALUES (?, ?, ?, 'pending', ?, ?)
                    """, arguments: [group, album.releaseID?.rawValue, rating?.feedbackScore ?? 0, date, date])
            }
            return true
        }
    }

    /// Records the artists found for rated albums (an empty list: looked up, none).
    public func setFavouriteArtists(_ artists: [MBID: [MBID]]) throws {
        try checkWritable()
        try guardedWrite { db in
            for (group, ids) in artists {
                try db.execute(sql: "UPDATE album_rating SET artistMbids = ? WHERE releaseGroupId = ?",
                               arguments: [ids.map(\.rawValue).joined(separator: " "), group.rawValue])
            }
        }
    }

    // MARK: - The feedback outbox

    /// Claims the next row due, leased to `owner` (this opening by default) until
    /// `leaseDuration` from `date`, in ONE `UPDATE … RETURNING`: two processes never get one row.
    /// A row waits while an older row of the same album is pending (sent in order). Rows in
    /// `excluding` are passed over (a pass does not take again a row it already tried).
    public func claimFeedback(owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = 60, excluding: Set<Int64> = [],
                              at date: Date = Date()) throws -> FeedbackItem? {
        try checkWritable()
        let owner = owner ?? leaseOwner
        let skipped = excluding.isEmpty ? "" : "AND f.id NOT IN (\(excluding.map { _ in "?" }.joined(separator: ",")))"
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            guard let row = try Row.fetchOne(db, sql: """
                UPDATE feedback_outbox SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = (
                    SELECT f.id FROM feedback_outbox f
                    WHERE f.state = 'pending' AND f.nextAttemptAt <= ?
                      AND (f.leaseOwner IS NULL OR f.leaseExpiresAt <= ? OR crate_lease_gone(f.leaseOwner))
                      AND NOT EXISTS (SELECT 1 FROM feedback_outbox o WHERE o.releaseGroupId = f.releaseGroupId AND o.state = 'pending' AND o.id < f.id)
                      \(skipped)
                    ORDER BY f.id LIMIT 1)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, now, now] + StatementArguments(Array(excluding))) else { return nil }
            return Self.feedbackItem(from: row)
        }
    }

    /// Keeps what a sender learnt (the recordings, those sent) while it holds the lease.
    /// Returns false when the lease is no longer `owner`'s.
    @discardableResult
    public func recordFeedbackProgress(id: Int64, recordings: [MBID], sent: Set<MBID>, owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = 60,
                                       at date: Date = Date()) throws -> Bool {
        try checkWritable()
        let owner = owner ?? leaseOwner
        let recordingsJSON = Self.json(recordings.map(\.rawValue))
        let sentJSON = Self.json(sent.map(\.rawValue).sorted())
        return try guardedWrite { db in
            try db.execute(sql: """
                UPDATE feedback_outbox SET recordings = ?, sentRecordings = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = ? AND state = 'pending' AND leaseOwner = ?
                """, arguments: [recordingsJSON, sentJSON, date.timeIntervalSince1970 + leaseDuration, date, id, owner.stored])
            return db.changesCount == 1
        }
    }

    /// Settles a claimed row: `sent`, or back to pending until `retryAt` (or `failed` for good).
    public func settleFeedback(id: Int64, sent: Bool, error: String? = nil, retryAt: Date? = nil, owner: BatchLeaseOwner? = nil, at date: Date = Date()) throws {
        try checkWritable()
        let owner = owner ?? leaseOwner
        try guardedWrite { db in
            let state = sent ? "sent" : (retryAt == nil ? "failed" : "pending")
            try db.execute(sql: """
                UPDATE feedback_outbox SET state = ?, error = ?, nextAttemptAt = ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?
                WHERE id = ? AND leaseOwner = ?
                """, arguments: [state, error, retryAt?.timeIntervalSince1970 ?? 0, date, id, owner.stored])
        }
    }

    /// Makes every waiting row due now (the user asked to retry; `crate feedback send --now`).
    public func makeFeedbackDue() throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE feedback_outbox SET nextAttemptAt = 0 WHERE state = 'pending'")
        }
    }

    private static func feedbackItem(from row: Row) -> FeedbackItem? {
        guard let group = MBID(validating: row["releaseGroupId"] as String) else { return nil }
        let recordings = (row["recordings"] as String?).map { strings($0).compactMap(MBID.init(validating:)) }
        let sent = Set(strings(row["sentRecordings"] as String? ?? "[]").compactMap(MBID.init(validating:)))
        return FeedbackItem(id: row["id"], releaseGroupID: group, releaseID: MBID(validating: row["releaseId"] as String?), score: row["score"],
                            recordings: recordings, sent: sent, attempts: row["attempts"])
    }

    private static func strings(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }

    private static func json(_ strings: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8), as: UTF8.self)
    }

    // MARK: - Recording → album mappings (reads: `Discover/*Request.swift`)

    public func cacheRecordingAlbums(_ map: [MBID: ListenBrainzReleaseGroup]) throws {
        guard !map.isEmpty, !isReadOnly else { return }
        try guardedWrite { db in
            for (recording, group) in map {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO wall_recording_map (recordingId, releaseGroupId, title, artist, releaseId, caaId, caaReleaseId)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [recording.rawValue, group.releaseGroupID.rawValue, group.title, group.artist, group.releaseID?.rawValue,
                                     group.caaID, group.caaReleaseID?.rawValue])
            }
        }
    }
}
