import Foundation
import GRDB

/// What one search decided for a staged row.
enum DiscogsImportOutcome: Sendable {
    /// Found on MusicBrainz: the album (reused when already in the crate), its copy or want.
    case matched(ReleaseCandidate)
    /// Not found by this search: try the next one.
    case advance(toStage: Int)
    /// No search is left: kept as a "Discogs only" album, retried by `crate repair`.
    case discogsOnly
}

/// Lost the import's lease (this process was paused past it and another took over): nothing
/// of the batch was written; the other process imports it.
struct DiscogsImportLeaseLost: Error {}

extension AppDatabase {
    /// Writes a batch's outcomes in ONE transaction with the albums, copies and wants they make,
    /// so a kill leaves either all of the batch imported or none of it (then searched again).
    /// Rows no longer pending (imported meanwhile) are left alone; the lease is checked and
    /// renewed in the same transaction, so two processes never write the same batch.
    func applyDiscogsImport(_ outcomes: [(id: Int64, outcome: DiscogsImportOutcome)], owner: BatchLeaseOwner, now: Date,
                            leaseDuration: TimeInterval) throws {
        try checkWritable()
        try guardedWrite { db in
            guard try Self.claimDiscogsImport(owner: owner, now: now, duration: leaseDuration, in: db) else { throw DiscogsImportLeaseLost() }
            for (id, outcome) in outcomes {
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM discogs_import_item WHERE id = ? AND state = 'pending'", arguments: [id]) else { continue }
                let staged = DiscogsStagedItem(row)
                switch outcome {
                case .advance(let stage):
                    try db.execute(sql: "UPDATE discogs_import_item SET stage = ?, updatedAt = ? WHERE id = ?", arguments: [stage, now, id])
                case .discogsOnly:
                    let albumID = try staged.albumID ?? Self.discogsOnlyAlbum(for: staged.item, in: db)
                    let copyID = try Self.keep(staged, albumID: albumID, releaseID: nil, in: db)
                    try db.execute(sql: "UPDATE discogs_import_item SET state = 'discogsOnly', albumId = ?, copyId = COALESCE(copyId, ?), updatedAt = ? WHERE id = ?",
                                   arguments: [albumID, copyID, now, id])
                case .matched(let candidate):
                    let albumID = try Self.matchedAlbum(candidate, replacing: staged, in: db)
                    let copyID = try Self.keep(staged, albumID: albumID, releaseID: candidate.releaseID.rawValue, in: db)
                    try Self.linkDiscogs(staged.item, albumID: albumID, at: now, in: db)
                    try db.execute(sql: "UPDATE discogs_import_item SET state = 'done', mbReleaseId = ?, albumId = ?, copyId = ?, updatedAt = ? WHERE id = ?",
                                   arguments: [candidate.releaseID.rawValue, albumID, copyID, now, id])
                }
            }
        }
    }

    /// The album a matched row belongs to: the crate's album of that release (or release group),
    /// else a new one; a "Discogs only" album made for the row earlier takes the release, or
    /// hands its copies and want to the album that already has it.
    private static func matchedAlbum(_ candidate: ReleaseCandidate, replacing staged: DiscogsStagedItem, in db: Database) throws -> Int64 {
        let album = Album(musicBrainzReleaseID: candidate.releaseID.rawValue, musicBrainzReleaseGroupID: candidate.releaseGroupID?.rawValue,
                          title: candidate.title.isEmpty ? staged.item.title : candidate.title,
                          artist: candidate.artist.isEmpty ? staged.item.artist : candidate.artist,
                          year: candidate.year.map(String.init) ?? staged.item.year, label: candidate.label ?? staged.item.firstLabel)
        guard let old = staged.albumID, try Bool.fetchOne(db, sql: "SELECT mbReleaseId IS NULL FROM album WHERE id = ?", arguments: [old]) == true else {
            return try addToCrate(album, tracks: [], facts: nil, in: db)
        }
        let existing = try Int64.fetchOne(db, sql: "SELECT id FROM album WHERE mbReleaseId = ? OR mbReleaseGroupId = ? ORDER BY mbReleaseId = ? DESC, id LIMIT 1",
                                          arguments: [album.musicBrainzReleaseID, album.musicBrainzReleaseGroupID ?? "", album.musicBrainzReleaseID])
        guard let existing else {
            try db.execute(sql: """
                UPDATE album SET mbReleaseId = ?, mbReleaseGroupId = ?, title = ?, artist = ?, artistSortKey = ?, year = ?, label = ?,
                    artworkStatus = ?, tracksStatus = ? WHERE id = ?
                """, arguments: [album.musicBrainzReleaseID, album.musicBrainzReleaseGroupID, album.title, album.artist, album.artistSortKey,
                                 album.year, album.label, ArtworkStatus.pending.rawValue, TrackListStatus.pending.rawValue, old])
            return old
        }
        try db.execute(sql: "UPDATE album_copy SET albumId = ? WHERE albumId = ?", arguments: [existing, old])
        try db.execute(sql: "UPDATE album SET wantedAt = COALESCE(wantedAt, (SELECT wantedAt FROM album WHERE id = ?)) WHERE id = ?", arguments: [old, existing])
        try db.execute(sql: "UPDATE discogs_import_item SET albumId = ? WHERE albumId = ?", arguments: [existing, old])
        if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan WHERE albumId = ?", arguments: [old]) == 0 {
            try db.execute(sql: "DELETE FROM album WHERE id = ?", arguments: [old])
        }
        return existing
    }

    /// A new album for a record MusicBrainz does not know (yet): Discogs' artist, title, year and
    /// label, no release, nothing to fetch. Copies of one release share it.
    private static func discogsOnlyAlbum(for item: DiscogsImportItem, in db: Database) throws -> Int64 {
        // `list IN (…)` lets SQLite find the release through the (list, releaseId, copyIndex) index.
        if let shared = try Int64.fetchOne(db, sql: """
            SELECT i.albumId FROM discogs_import_item i JOIN album a ON a.id = i.albumId
            WHERE i.list IN ('collection', 'wantlist') AND i.releaseId = ? AND i.state = 'discogsOnly' AND a.mbReleaseId IS NULL LIMIT 1
            """, arguments: [item.releaseID]) {
            return shared
        }
        var album = Album(title: item.title.isEmpty ? "Release \(item.releaseID)" : item.title, artist: ArtistCredit.name(item.artist),
                          year: item.year, label: item.firstLabel, artworkStatus: .unavailable, tracksStatus: .unavailable)
        try album.insert(db)
        guard let id = album.id else { throw CrateError.notFound("The imported album") }
        try linkDiscogs(item, albumID: id, at: Date(), in: db)
        return id
    }

    /// The row's copy (collection) or want (wantlist). A copy made earlier for the row (when it
    /// was "Discogs only") is kept and pointed at the release now found.
    private static func keep(_ staged: DiscogsStagedItem, albumID: Int64, releaseID: String?, in db: Database) throws -> Int64? {
        let item = staged.item
        switch item.list {
        case .wantlist:
            try db.execute(sql: "UPDATE album SET wantedAt = COALESCE(wantedAt, ?) WHERE id = ?", arguments: [item.addedAt ?? Date(), albumID])
            return nil
        case .collection:
            if let copyID = try Int64.fetchOne(db, sql: "SELECT copyId FROM discogs_import_item WHERE id = ?", arguments: [staged.id]),
               try OwnedCopyRow.exists(db, key: copyID) {
                try db.execute(sql: "UPDATE album_copy SET albumId = ?, releaseId = COALESCE(?, releaseId) WHERE id = ?", arguments: [albumID, releaseID, copyID])
                return copyID
            }
            // A copy the user already owns here and no imported row stands for (added with "I Own
            // This", then to Discogs from this Crate) is that Discogs copy: adopted, never doubled.
            if let own = try Int64.fetchOne(db, sql: """
                SELECT id FROM album_copy WHERE albumId = ?
                  AND id NOT IN (SELECT copyId FROM discogs_import_item WHERE copyId IS NOT NULL)
                ORDER BY id LIMIT 1
                """, arguments: [albumID]) {
                return own
            }
            var row = OwnedCopyRow(OwnedCopy(albumID: albumID, format: item.format, releaseID: releaseID, note: item.note, addedAt: item.addedAt ?? Date()))
            try row.insert(db)
            return row.id
        }
    }

    /// The album's Discogs link is the imported release (a link found earlier by search is kept).
    private static func linkDiscogs(_ item: DiscogsImportItem, albumID: Int64, at now: Date, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO discogs_link (albumId, status, releaseId, url, score, title, year, checkedAt, retryAfter)
            VALUES (?, 'linked', ?, ?, 1.0, ?, ?, ?, NULL)
            ON CONFLICT(albumId) DO UPDATE SET status = 'linked', releaseId = excluded.releaseId, url = excluded.url, score = 1.0,
                title = excluded.title, year = excluded.year, checkedAt = excluded.checkedAt, retryAfter = NULL
            WHERE discogs_link.status != 'linked'
            """, arguments: [albumID, item.releaseID, "https://www.discogs.com/release/\(item.releaseID)", "\(item.artist) - \(item.title)", item.year, now])
    }
}
