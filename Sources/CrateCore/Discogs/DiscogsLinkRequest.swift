import Foundation
import GRDB

/// The album's Discogs state, or nil when Discogs was never asked.
public struct DiscogsLinkRequest: ReadRequest {
    public var albumID: Int64

    public init(albumID: Int64) {
        self.albumID = albumID
    }

    public func fetch(_ db: Database) throws -> DiscogsLinkState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM discogs_link WHERE albumId = ?", arguments: [albumID]) else {
            return nil
        }
        switch row["status"] as String? {
        case "linked":
            guard let id: Int = row["releaseId"], let text: String = row["url"], let url = URL(string: text),
                  let score: Double = row["score"] else { return nil }
            return .linked(DiscogsLink(releaseID: id, url: url, score: score, title: row["title"] ?? "", year: row["year"]))
        case "none":
            return .noMatch
        case "retry":
            return .retry(after: row["retryAfter"] ?? .distantPast)
        default:
            return nil
        }
    }
}
