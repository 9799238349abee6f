import Foundation
import GRDB

/// The Discogs outbox's writes: queue once, claim with a lease, note a POST before it leaves,
/// settle (docs/decisions/0044-discogs-account-and-outbox.md).
extension AppDatabase {
    /// Queues `action` for `releaseID`; returns false when the same action for the same release
    /// already waits (nothing is added).
    @discardableResult
    public func queueDiscogs(_ action: DiscogsAction, releaseID: Int, albumID: Int64?, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        return try guardedWrite { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO discogs_outbox (action, releaseId, albumId, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?)
                """, arguments: [action.rawValue, releaseID, albumID, date, date])
            return db.changesCount == 1
        }
    }

    /// Claims the oldest row due, leased to `owner` until `leaseDuration` from `date`, in ONE
    /// `UPDATE … RETURNING`: two processes never get one row.
    public func claimDiscogsAction(owner: BatchLeaseOwner? = nil, leaseDuration: TimeInterval = 120, at date: Date = Date()) throws -> DiscogsOutboxItem? {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            let now = date.timeIntervalSince1970
            guard let row = try Row.fetchOne(db, sql: """
                UPDATE discogs_outbox SET attempts = attempts + 1, leaseOwner = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = (
                    SELECT id FROM discogs_outbox WHERE state = 'pending' AND nextAttemptAt <= ? AND \(Self.leaseIsFree)
                    ORDER BY id LIMIT 1)
                RETURNING *
                """, arguments: [owner.stored, now + leaseDuration, date, now, now]) else { return nil }
            return Self.discogsItem(from: row)
        }
    }

    /// Notes, while `owner` holds the lease, that a collection POST is about to leave for
    /// `username`, who had `copiesBefore` copies; renews the lease. False when the lease is lost
    /// (the POST must then not go).
    public func recordDiscogsPost(id: Int64, username: String, copiesBefore: Int, owner: BatchLeaseOwner? = nil,
                                  leaseDuration: TimeInterval = 120, at date: Date = Date()) throws -> Bool {
        try checkWritable()
        let owner = owner ?? leaseOwner
        return try guardedWrite { db in
            try db.execute(sql: """
                UPDATE discogs_outbox SET username = ?, copiesBefore = ?, postedAt = ?, leaseExpiresAt = ?, updatedAt = ?
                WHERE id = ? AND state = 'pending' AND leaseOwner = ?
                """, arguments: [username, copiesBefore, date.timeIntervalSince1970, date.timeIntervalSince1970 + leaseDuration, date, id, owner.stored])
            return db.changesCount == 1
        }
    }

    /// How a claimed row ends this time.
    public enum DiscogsSettlement: Equatable, Sendable {
        case sent
        /// Back to pending until then; `keepPost` keeps the note of a POST whose outcome is unknown.
        case retry(at: Date, keepPost: Bool)
        case failed
    }

    /// Settles a claimed row (only while `owner` holds its lease).
    public func settleDiscogsAction(id: Int64, _ settlement: DiscogsSettlement, error: String? = nil, owner: BatchLeaseOwner? = nil,
                                    at date: Date = Date()) throws {
        try checkWritable()
        let owner = owner ?? leaseOwner
        let (state, next, keep): (String, Double, Bool) = switch settlement {
        case .sent: ("sent", 0, true)
        case .retry(let at, let keepPost): ("pending", at.timeIntervalSince1970, keepPost)
        case .failed: ("failed", 0, false)
        }
        try guardedWrite { db in
            try db.execute(sql: """
                UPDATE discogs_outbox SET state = ?, error = ?, nextAttemptAt = ?, leaseOwner = NULL, leaseExpiresAt = NULL, updatedAt = ?,
                    postedAt = CASE WHEN ? THEN postedAt ELSE NULL END
                WHERE id = ? AND state = 'pending' AND leaseOwner = ?
                """, arguments: [state, state == "sent" ? nil : error, next, date, keep, id, owner.stored])
        }
    }

    /// Every waiting row waits at least until `date` (Discogs paused Crate, or refused the token:
    /// the next row would meet the same answer).
    public func postponeDiscogsActions(until date: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE discogs_outbox SET nextAttemptAt = MAX(nextAttemptAt, ?) WHERE state = 'pending'",
                           arguments: [date.timeIntervalSince1970])
        }
    }

    /// Makes every waiting row due now (`crate discogs send`: the user asked).
    public func makeDiscogsActionsDue() throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "UPDATE discogs_outbox SET nextAttemptAt = 0 WHERE state = 'pending'")
        }
    }

    static func discogsItem(from row: Row) -> DiscogsOutboxItem? {
        guard let action = DiscogsAction(rawValue: row["action"]) else { return nil }
        let posted: Double? = row["postedAt"]
        return DiscogsOutboxItem(id: row["id"], action: action, releaseID: row["releaseId"], albumID: row["albumId"], attempts: row["attempts"],
                                 username: row["username"], copiesBefore: row["copiesBefore"], postedAt: posted.map(Date.init(timeIntervalSince1970:)))
    }
}
