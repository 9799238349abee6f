import CrateCore
import Foundation
import GRDB

/// What a kill campaign left in the library, photo by photo and album by album, for a failure
/// message that says which photo has no album and where each photo's saved scans went.
enum CampaignDiagnosis {
    /// Photo `k` is "Album k" (see `CampaignFixture`): a queue item of photo k whose scan shows
    /// another album is a photo given to the wrong album.
    static func misfiled(_ database: AppDatabase, photos: [URL]) throws -> [String] {
        try database.reader.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT batch_item.path, scan.id AS scanId, scan.method, album.title
                FROM batch_item JOIN scan ON scan.id = batch_item.scanId JOIN album ON album.id = scan.albumId
                ORDER BY batch_item.id
                """)
            return rows.compactMap { row -> String? in
                let path: String = row["path"], title: String = row["title"]
                guard let index = photos.firstIndex(where: { $0.path == path }), title != "Album \(index)" else { return nil }
                return "photo-\(index) scan \(row["scanId"] as Int64) (\(row["method"] as String)) → \(title)"
            }
        }
    }

    /// One line per photo (its queue items: state, attempts, the saved scan's album) and per album
    /// (id, release, track and artwork status, its scans' methods).
    static func describe(_ database: AppDatabase, photos: [URL]) throws -> String {
        try database.reader.read { db in
            var lines: [String] = []
            for (index, photo) in photos.enumerated() {
                let items = try Row.fetchAll(db, sql: """
                    SELECT batch_item.state, batch_item.attempts, batch_item.error, scan.method, album.title
                    FROM batch_item LEFT JOIN scan ON scan.id = batch_item.scanId LEFT JOIN album ON album.id = scan.albumId
                    WHERE batch_item.path = ? ORDER BY batch_item.id
                    """, arguments: [photo.path])
                let text = items.map { row -> String in
                    let state: String = row["state"], attempts: Int = row["attempts"]
                    let saved = (row["title"] as String?).map { " → \($0) (\(row["method"] as String? ?? "?"))" } ?? ""
                    let error = (row["error"] as String?).map { " [\($0)]" } ?? ""
                    return "\(state)×\(attempts)\(saved)\(error)"
                }
                lines.append("photo-\(index): \(items.count) items: \(text.joined(separator: "; "))")
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT album.id, album.title, album.mbReleaseId, album.tracksStatus, album.artworkStatus,
                       (SELECT COUNT(*) FROM track WHERE track.albumId = album.id) AS tracks,
                       (SELECT GROUP_CONCAT(method) FROM scan WHERE scan.albumId = album.id) AS methods
                FROM album ORDER BY album.id
                """) {
                let id: Int64 = row["id"], title: String = row["title"], tracks: Int = row["tracks"]
                let release: String? = row["mbReleaseId"], methods: String? = row["methods"]
                lines.append("album \(id) \(title): release \(release ?? "none"), tracks \(row["tracksStatus"] as String? ?? "?") (\(tracks)), "
                             + "artwork \(row["artworkStatus"] as String? ?? "?"), scans \(methods ?? "none")")
            }
            let unqueued = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan WHERE id NOT IN (SELECT scanId FROM batch_item WHERE scanId IS NOT NULL)") ?? 0
            lines.append("\(unqueued) scans saved without a queue item (direct `crate scan`)")
            return lines.joined(separator: "\n")
        }
    }
}
