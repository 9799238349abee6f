import Foundation
import GRDB

/// Where an album stands with Discogs.
public enum DiscogsLinkState: Equatable, Sendable {
    /// Matched: the release page and the score.
    case linked(DiscogsLink)
    /// Asked, and nothing matched well enough.
    case noMatch
    /// Discogs could not be asked (offline, token refused, rate limited): ask again after this.
    case retry(after: Date)
}

extension AppDatabase {
    // MARK: - Discogs links

    /// Records what Discogs answered for an album (only `DiscogsLink`'s fields are written: the
    /// search reply's marketplace and price fields never get this far).
    public func saveDiscogsState(_ state: DiscogsLinkState, forAlbum albumID: Int64, at now: Date) throws {
        try checkWritable()
        try writer.write { db in
            var arguments: StatementArguments
            switch state {
            case .linked(let link):
                arguments = [albumID, "linked", link.releaseID, link.url.absoluteString, link.score, link.title, link.year, now, nil]
            case .noMatch:
                arguments = [albumID, "none", nil, nil, nil, nil, nil, now, nil]
            case .retry(let after):
                arguments = [albumID, "retry", nil, nil, nil, nil, nil, now, after]
            }
            // A retry never replaces a link found earlier (a later refresh that fails keeps it).
            if case .retry = state,
               try String.fetchOne(db, sql: "SELECT status FROM discogs_link WHERE albumId = ?", arguments: [albumID]) == "linked" {
                return
            }
            try db.execute(sql: """
                INSERT OR REPLACE INTO discogs_link (albumId, status, releaseId, url, score, title, year, checkedAt, retryAfter)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: arguments)
        }
    }

    /// `DiscogsLinkRequest`, by name for the scan pipeline (which moves to the request later).
    public func discogsState(forAlbum albumID: Int64) throws -> DiscogsLinkState? {
        try read(DiscogsLinkRequest(albumID: albumID))
    }

    /// Albums to ask Discogs about: never asked, or due for a retry at `now`; oldest first.
    public func albumsAwaitingDiscogs(now: Date, limit: Int = 20) throws -> [Album] {
        try reader.read { db in
            try Album.fetchAll(db, sql: """
                SELECT album.* FROM album LEFT JOIN discogs_link ON discogs_link.albumId = album.id
                WHERE discogs_link.albumId IS NULL OR (discogs_link.status = 'retry' AND discogs_link.retryAfter <= ?)
                ORDER BY album.id LIMIT ?
                """, arguments: [now, limit])
        }
    }
}
