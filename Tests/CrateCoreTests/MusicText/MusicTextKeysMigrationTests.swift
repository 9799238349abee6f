import Foundation
import GRDB
import Testing
@testable import CrateCore

/// Keys stored before `MusicText` are re-keyed by the migration, so nothing has to be rescanned
/// or reviewed again.
@Suite("Music-text keys migration")
struct MusicTextKeysMigrationTests {
    @Test func storedAlbumAndReviewKeysAreRekeyed() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v19-records")
        try queue.write { db in
            let albums = [("Simon & Garfunkel", "Bookends"), ("The Beatles", "Abbey Road"), ("Fleetwood Mac", "Rumours")]
            for (artist, title) in albums {
                try db.execute(sql: "INSERT INTO album (title, artist, artistSortKey, createdAt) VALUES (?, ?, ?, ?)",
                               arguments: [title, artist, artist.lowercased(), Date()])
            }
            for key in ["simon & garfunkel|bookends", "the beatles|abbey road", "fleetwood mac|rumours", "beatles|abbey road"] {
                try Review(key: key, summary: key, bullets: [], rating: 7, recommendation: "r", tier: 1, keyTracks: [],
                           provider: "p", model: "m", promptVersion: "v", usedSearch: false).insert(db)
            }
            // As the old album key wrote them: "Beatles, The" kept its article, "!!!" folded to nothing.
            let files = [("/m/a.flac", "Beatles, The", "Abbey Road", "beatles the\u{1F}abbey road"),
                         ("/m/b.flac", "!!!", "Myth Takes", "\u{1F}myth takes")]
            // The old barcode key kept a UPC-E's 8 digits; an ISBN on a release stays findable by its digits.
            for (album, barcode) in [(1, "01234565"), (2, "9780140449136"), (3, "075992731310")] {
                try db.execute(sql: "INSERT INTO release_facts (albumId, barcode, barcodeKey, fetchedAt) VALUES (?, ?, ?, ?)",
                               arguments: [album, barcode, barcode.count == 12 ? "0" + barcode : barcode, Date()])
            }
            for (path, artist, album, key) in files {
                try db.execute(sql: """
                    INSERT INTO music_file (path, mtimeNs, size, status, title, albumArtist, album, disc, albumKey, groupKey, tagged)
                    VALUES (?, 0, 1, 'ok', 't', ?, ?, 1, ?, ?, 1)
                    """, arguments: [path, artist, album, key, "dir:/m\u{1F}" + key])
            }
        }
        try AppDatabase.migrator.migrate(queue)
        try queue.read { db in
            let reviews = try String.fetchAll(db, sql: "SELECT key FROM review ORDER BY key")
            // The Beatles' review already under the new key wins; the old one stays, unused.
            #expect(reviews == ["beatles|abbey road", "fleetwood mac|rumours", "simon and garfunkel|bookends", "the beatles|abbey road"])
            #expect(try String.fetchAll(db, sql: "SELECT barcodeKey FROM release_facts ORDER BY albumId")
                        == ["0012345000065", "9780140449136", "0075992731310"])
            let keys = try Row.fetchAll(db, sql: "SELECT albumKey, groupKey FROM music_file ORDER BY path").map { [$0[0] as String, $0[1] as String] }
            #expect(keys == [[MusicText.albumKey(artist: "The Beatles", title: "Abbey Road"), "dir:/m\u{1F}beatles\u{1F}abbey road"],
                             ["!!!\u{1F}myth takes", "dir:/m\u{1F}!!!\u{1F}myth takes"]])
        }
    }

    @Test func aReviewStoredUnderTheOldKeyIsStillFound() throws {
        // A review asked for by name, of an album the migration never saw.
        let harness = try ReviewHarness([])
        let old = LegacyReviewKey.make(artist: "Simon & Garfunkel", title: "Bookends (Remastered)")
        #expect(old == "simon & garfunkel|bookends")
        #expect(ReviewKey.make(artist: "Simon & Garfunkel", title: "Bookends (Remastered)") == "simon and garfunkel|bookends")
        let stored = Review(key: old, summary: "s", bullets: [], rating: 8, recommendation: "r", tier: 1, keyTracks: [],
                            provider: "p", model: "m", promptVersion: "v", usedSearch: false, generatedAt: ReviewHarness.fixedDate)
        try harness.database.saveReview(stored)
        let input = try ReviewInput(artist: "Simon & Garfunkel", title: "Bookends")
        #expect(harness.service.cachedReview(for: input) == stored)
    }
}
