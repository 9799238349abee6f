import Foundation
import GRDB

extension AppDatabase {
    /// Re-keys what was stored under keys folded before `MusicText`: each music file's album and
    /// group keys (recomputed from the tags stored beside them, so unchanged files need no
    /// rescan), release facts' barcode keys (from the barcode beside them: UPC-E and EAN-8 now
    /// have their GTIN-13) and the reviews of the crate's albums (old key → new key; a review
    /// already under the new key wins).
    static func rekeyMusicText(_ db: Database) throws {
        let files = try Row.fetchAll(db, sql: "SELECT id, albumArtist, album, albumKey, groupKey FROM music_file")
        for file in files {
            let old: String = file[3], key = MusicText.albumKey(artist: file[1], title: file[2])
            guard key != old else { continue }
            var group: String = file[4]
            // "dir:<folder>\u{1F}<album key>"; "mb:<release id>" groups do not hold the key.
            if group.hasPrefix("dir:"), group.hasSuffix("\u{1F}" + old) { group = String(group.dropLast(old.count)) + key }
            try db.execute(sql: "UPDATE music_file SET albumKey = ?, groupKey = ? WHERE id = ?", arguments: [key, group, file[0]])
        }
        let facts = try Row.fetchAll(db, sql: "SELECT albumId, barcode FROM release_facts WHERE barcode IS NOT NULL")
        for row in facts {
            try db.execute(sql: "UPDATE release_facts SET barcodeKey = ? WHERE albumId = ?", arguments: [Barcode.lookupKey(row[1]), row[0]])
        }
        let albums = try Row.fetchAll(db, sql: "SELECT DISTINCT artist, title FROM album")
        for album in albums {
            let old = LegacyReviewKey.make(artist: album[0], title: album[1]), key = ReviewKey.make(artist: album[0], title: album[1])
            guard key != old else { continue }
            try db.execute(sql: "UPDATE OR IGNORE review SET key = ? WHERE key = ?", arguments: [key, old])
        }
    }
}
