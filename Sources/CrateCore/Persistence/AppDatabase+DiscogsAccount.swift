import Foundation
import GRDB

/// The Discogs account's cache and outbox (docs/decisions/0044-discogs-account-and-outbox.md).
extension AppDatabase {
    /// `v23-discogs-outbox`: who the token belongs to, the cached status per release, the
    /// wantlist as last read, and the outbox of additions.
    static func createDiscogsAccountTables(_ db: Database) throws {
        // Keyed by a SHA-256 of the token (the token itself is never stored here): another
        // token finds no row, and saving its user forgets the others.
        try db.create(table: "discogs_identity") { t in
            t.primaryKey("tokenKey", .text)
            t.column("username", .text).notNull()
            t.column("fetchedAt", .double).notNull()
        }
        try db.create(table: "discogs_release_status") { t in
            t.column("username", .text).notNull()
            t.column("releaseId", .integer).notNull()
            t.column("copies", .integer).notNull()
            t.column("fetchedAt", .double).notNull()
            t.primaryKey(["username", "releaseId"])
        }
        try db.create(table: "discogs_wantlist") { t in
            t.column("username", .text).notNull()
            t.column("releaseId", .integer).notNull()
            t.primaryKey(["username", "releaseId"])
        }
        try db.create(table: "discogs_wantlist_sync") { t in
            t.primaryKey("username", .text)
            t.column("fetchedAt", .double).notNull()
            // All pages read (false: stopped at the page cap, so "not wanted" is not known).
            t.column("complete", .boolean).notNull()
        }
        try db.create(table: "discogs_outbox") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("action", .text).notNull()
            t.column("releaseId", .integer).notNull()
            t.column("albumId", .integer).references("album", onDelete: .setNull)
            t.column("state", .text).notNull().defaults(to: "pending")
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("nextAttemptAt", .double).notNull().defaults(to: 0)
            t.column("leaseOwner", .text)
            t.column("leaseExpiresAt", .double)
            // Set just before a collection POST leaves, cleared when its outcome is known.
            t.column("username", .text)
            t.column("copiesBefore", .integer)
            t.column("postedAt", .double)
            t.column("error", .text)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        // One waiting row per action and release: a second tap (or process) adds nothing.
        try db.execute(sql: "CREATE UNIQUE INDEX discogs_outbox_once ON discogs_outbox(action, releaseId) WHERE state = 'pending'")
        try db.create(index: "discogs_outbox_due", on: "discogs_outbox", columns: ["state", "nextAttemptAt"])
    }

    // MARK: - Identity

    /// The user name cached for the token whose key is `tokenKey`, or nil.
    public func discogsUsername(tokenKey: String) throws -> String? {
        try reader.read { db in
            try String.fetchOne(db, sql: "SELECT username FROM discogs_identity WHERE tokenKey = ?", arguments: [tokenKey])
        }
    }

    /// Remembers the token's owner, forgetting the owner of any other token.
    public func saveDiscogsIdentity(username: String, tokenKey: String, at date: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "DELETE FROM discogs_identity WHERE tokenKey <> ?", arguments: [tokenKey])
            try db.execute(sql: "INSERT OR REPLACE INTO discogs_identity (tokenKey, username, fetchedAt) VALUES (?, ?, ?)",
                           arguments: [tokenKey, username, date.timeIntervalSince1970])
        }
    }

    /// Forgets the owner of a token Discogs refused.
    public func forgetDiscogsIdentity(tokenKey: String) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "DELETE FROM discogs_identity WHERE tokenKey = ?", arguments: [tokenKey])
        }
    }

    // MARK: - Status cache

    /// The copies of `releaseID` in `username`'s collection, as read at `date`.
    public func saveDiscogsCopies(_ copies: Int, releaseID: Int, username: String, at date: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "INSERT OR REPLACE INTO discogs_release_status (username, releaseId, copies, fetchedAt) VALUES (?, ?, ?, ?)",
                           arguments: [username, releaseID, max(0, copies), date.timeIntervalSince1970])
        }
    }

    /// Replaces `username`'s wantlist with the releases just read, in one transaction.
    public func saveDiscogsWantlist(_ releaseIDs: Set<Int>, complete: Bool, username: String, at date: Date) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "DELETE FROM discogs_wantlist WHERE username = ?", arguments: [username])
            for id in releaseIDs.sorted() {
                try db.execute(sql: "INSERT OR IGNORE INTO discogs_wantlist (username, releaseId) VALUES (?, ?)", arguments: [username, id])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO discogs_wantlist_sync (username, fetchedAt, complete) VALUES (?, ?, ?)",
                           arguments: [username, date.timeIntervalSince1970, complete])
        }
    }

    /// One release is now on `username`'s wantlist (a PUT was accepted).
    public func markDiscogsWanted(releaseID: Int, username: String) throws {
        try checkWritable()
        try guardedWrite { db in
            try db.execute(sql: "INSERT OR IGNORE INTO discogs_wantlist (username, releaseId) VALUES (?, ?)", arguments: [username, releaseID])
        }
    }
}
