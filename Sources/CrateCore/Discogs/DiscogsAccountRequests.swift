import Foundation
import GRDB

/// What the library knows of one release in `username`'s Discogs account.
public struct DiscogsReleaseStatusRequest: ReadRequest {
    public var username: String
    public var releaseID: Int

    public init(username: String, releaseID: Int) {
        self.username = username
        self.releaseID = releaseID
    }

    public func fetch(_ db: Database) throws -> DiscogsReleaseStatus {
        var status = DiscogsReleaseStatus(releaseID: releaseID)
        if let row = try Row.fetchOne(db, sql: "SELECT copies, fetchedAt FROM discogs_release_status WHERE username = ? AND releaseId = ?",
                                      arguments: [username, releaseID]) {
            status.copies = row["copies"]
            status.copiesFetchedAt = Date(timeIntervalSince1970: row["fetchedAt"])
        }
        let wanted = try Bool.fetchOne(db, sql: "SELECT 1 FROM discogs_wantlist WHERE username = ? AND releaseId = ?", arguments: [username, releaseID]) != nil
        if let sync = try Row.fetchOne(db, sql: "SELECT fetchedAt, complete FROM discogs_wantlist_sync WHERE username = ?", arguments: [username]) {
            status.wantlistFetchedAt = Date(timeIntervalSince1970: sync["fetchedAt"])
            // A wantlist cut at the page cap says "wanted" when it lists the release, nothing otherwise.
            status.inWantlist = wanted ? true : ((sync["complete"] as Bool) ? false : nil)
        } else if wanted {
            status.inWantlist = true
        }
        return status
    }
}

/// The album pane's Discogs account line: the album's release, its cached status for the
/// token's user (when known) and the additions still waiting.
public struct DiscogsAlbumAccountRequest: ReadRequest {
    public struct Answer: Equatable, Sendable {
        public var releaseID: Int?
        public var status: DiscogsReleaseStatus?
        public var pending: [DiscogsPendingAction]
    }

    public var albumID: Int64
    public var tokenKey: String?

    public init(albumID: Int64, tokenKey: String?) {
        self.albumID = albumID
        self.tokenKey = tokenKey
    }

    public func fetch(_ db: Database) throws -> Answer {
        guard case .linked(let link) = try DiscogsLinkRequest(albumID: albumID).fetch(db) else { return Answer(releaseID: nil, status: nil, pending: []) }
        var status: DiscogsReleaseStatus?
        if let tokenKey, let user = try String.fetchOne(db, sql: "SELECT username FROM discogs_identity WHERE tokenKey = ?", arguments: [tokenKey]) {
            status = try DiscogsReleaseStatusRequest(username: user, releaseID: link.releaseID).fetch(db)
        }
        let pending = try Row.fetchAll(db, sql: """
            SELECT action, error, nextAttemptAt FROM discogs_outbox WHERE releaseId = ? AND state = 'pending' ORDER BY id
            """, arguments: [link.releaseID]).compactMap { row -> DiscogsPendingAction? in
            guard let action = DiscogsAction(rawValue: row["action"]) else { return nil }
            let next: Double = row["nextAttemptAt"]
            return DiscogsPendingAction(action: action, error: row["error"], nextAttemptAt: next > 0 ? Date(timeIntervalSince1970: next) : nil)
        }
        return Answer(releaseID: link.releaseID, status: status, pending: pending)
    }
}

/// The outbox in numbers (`crate discogs status` without an album).
public struct DiscogsOutboxStatusRequest: ReadRequest {
    public struct Answer: Equatable, Sendable, Encodable {
        public var queued = 0
        public var sent = 0
        public var failed = 0
        public var lastError: String?
        /// When the earliest waiting row is due (nil: none waits).
        public var nextAttemptAt: Date?
    }

    public init() {}

    public func fetch(_ db: Database) throws -> Answer {
        var answer = Answer()
        for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM discogs_outbox GROUP BY state") {
            let n: Int = row["n"]
            switch row["state"] as String {
            case "sent": answer.sent = n
            case "failed": answer.failed = n
            default: answer.queued += n
            }
        }
        answer.lastError = try String.fetchOne(db, sql: """
            SELECT error FROM discogs_outbox WHERE state IN ('pending', 'failed') AND error IS NOT NULL ORDER BY updatedAt DESC, id DESC LIMIT 1
            """)
        if let next = try Double.fetchOne(db, sql: "SELECT MIN(nextAttemptAt) FROM discogs_outbox WHERE state = 'pending'") {
            answer.nextAttemptAt = Date(timeIntervalSince1970: next)
        }
        return answer
    }
}
