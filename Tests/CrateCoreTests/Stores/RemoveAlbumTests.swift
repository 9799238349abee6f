import CrateTestSupport
import Foundation
import GRDB
import Testing
@testable import CrateCore

/// "Remove from Crate" and its Undo: the album leaves with everything tied to it and comes back
/// identical (ids, scans and their runners-up, tracks, cover hash, Discogs link, a queued photo's
/// scan, favourite and review untouched), and another process on the library sees both changes.
@Suite("Remove from Crate")
@MainActor
struct RemoveAlbumTests {
    /// Every row of every table (virtual tables and the migration list aside), sorted per table.
    static func dump(_ database: AppDatabase) throws -> [String: [String]] {
        try database.writer.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'album_fts%' AND name != 'grdb_migrations'")
            var out: [String: [String]] = [:]
            for table in tables {
                out[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map { $0.description }.sorted()
            }
            return out
        }
    }

    /// Two albums; the first with two scans (runners-up), tracks, a cover hash, a Discogs link,
    /// a finished queued photo pointing at its scan, a favourite and a review.
    static func seed(_ database: AppDatabase) throws -> (albumID: Int64, other: Int64) {
        var album = Album.sample("Blue Train", artist: "John Coltrane", mbid: "11111111-1111-1111-1111-111111111111")
        album.musicBrainzReleaseGroupID = "22222222-2222-2222-2222-222222222222"
        let first = try database.saveScan(of: album, method: .manual, at: Date(timeIntervalSince1970: 1_000),
                                          candidates: [ScanCandidate(album: .sample("Giant Steps", artist: "John Coltrane"), score: 0.4)])
        let second = try database.saveScan(of: album, method: .manual, at: Date(timeIntervalSince1970: 2_000))
        let albumID = try #require(first.album.id)
        #expect(second.album.id == albumID)
        let other = try #require(try database.saveScan(of: .sample("Rumours"), method: .manual).album.id)
        try database.replaceTracks([Track(albumID: albumID, position: 1, number: "1", title: "Blue Train", durationMs: 643_000),
                                    Track(albumID: albumID, position: 2, number: "2", title: "Moment's Notice", durationMs: 550_000)], forAlbum: albumID)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO cover_hash (albumId, phash, dhash) VALUES (?, 42, 43)", arguments: [albumID])
            try db.execute(sql: "INSERT INTO discogs_link (albumId, status, releaseId, url, score, checkedAt) VALUES (?, 'linked', 7, 'https://www.discogs.com/release/7', 0.9, '2026-01-01 00:00:00')", arguments: [albumID])
            try db.execute(sql: "INSERT INTO batch_item (path, state, scanId, addedAt, updatedAt) VALUES ('/photos/blue-train.jpg', 'done', ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00')", arguments: [first.id])
            try db.execute(sql: "INSERT INTO album_rating (releaseGroupId, rating, title, artist, ratedAt) VALUES ('22222222-2222-2222-2222-222222222222', 1, 'Blue Train', 'John Coltrane', '2026-01-01 00:00:00')")
        }
        try database.saveReview(Review(key: "11111111-1111-1111-1111-111111111111", summary: "Hard bop.", bullets: [], rating: 9, recommendation: "Play it",
                                       tier: 1, keyTracks: ["Blue Train"], provider: "test", model: "test", promptVersion: "v1", usedSearch: false))
        return (albumID, other)
    }

    @Test func removeThenUndoRestoresEverythingIdentically() async throws {
        let dir = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: dir.paths)
        let (albumID, other) = try Self.seed(database)
        let before = try Self.dump(database)
        #expect(before["scan_candidate"]?.count == 1 && before["track"]?.count == 2)

        let library = LibraryStore(database: database)
        await library.reload()
        #expect(library.state.value.total == 2)
        let removed = try #require(await library.remove(albumID: albumID))
        #expect(removed.title == "Blue Train")
        #expect(library.state.value.total == 1)
        #expect(library.state.value.undoableRemoval == removed)
        #expect(try database.album(id: albumID) == nil)
        let after = try Self.dump(database)
        #expect(after["scan"]?.count == 1 && after["track"]?.isEmpty == true && after["scan_candidate"]?.isEmpty == true)
        #expect(after["cover_hash"]?.isEmpty == true && after["discogs_link"]?.isEmpty == true)
        #expect(after["album_rating"] == before["album_rating"], "the favourite is kept (keyed by release group)")
        #expect(after["review"] == before["review"])
        #expect(try database.album(id: other) != nil)

        #expect(await library.undoRemoval())
        #expect(library.state.value.undoableRemoval == nil)
        #expect(library.state.value.total == 2)
        #expect(try Self.dump(database) == before, "every row back as it was")
        #expect(try database.read(AlbumListingRequest(sortedBy: .title, matching: "Blue Train")).count == 1, "searchable again")
        // A second Undo (toast and Ctrl+Z) restores once.
        #expect(await library.undoRemoval(removed))
        #expect(try Self.dump(database) == before)
    }

    @Test func anotherProcessSeesTheRemovalAndTheUndo() async throws {
        let dir = try TemporaryDirectory()
        let window = try AppDatabase.open(paths: dir.paths)
        let (albumID, _) = try Self.seed(window)
        // The CLI: its own connection pool on the same file.
        let cli = try AppDatabase.open(paths: dir.paths)
        let watcher = LibraryStore(database: cli)
        watcher.start()
        defer { watcher.stop() }
        #expect(await waitUntil(watcher.state) { watcher.state.value.total == 2 } != nil)

        let removed = try #require(try window.removeAlbum(id: albumID))
        #expect(await waitUntil(watcher.state) { watcher.state.value.total == 1 } != nil, "the other process sees the album go")
        #expect(try cli.album(id: albumID) == nil)
        // Removing it again from the other process finds nothing and changes nothing.
        #expect(try cli.removeAlbum(id: albumID) == nil)

        try window.restoreAlbum(removed)
        #expect(await waitUntil(watcher.state) { watcher.state.value.total == 2 } != nil, "and come back")
        #expect(try cli.album(id: albumID)?.title == "Blue Train")
        #expect(try cli.read(HistoryPageRequest()).filter { $0.album.id == albumID }.count == 2)
    }

    @Test func undoAfterTheAlbumWasScannedAgainSaysSoAndChangesNothing() async throws {
        let database = try AppDatabase.inMemory()
        let (albumID, _) = try Self.seed(database)
        let removed = try #require(try database.removeAlbum(id: albumID))
        // Scanned again meanwhile: the same release is a new album.
        var again = Album.sample("Blue Train", artist: "John Coltrane", mbid: "11111111-1111-1111-1111-111111111111")
        again.musicBrainzReleaseGroupID = "22222222-2222-2222-2222-222222222222"
        _ = try database.saveScan(of: again, method: .manual)
        let before = try Self.dump(database)
        #expect(throws: CrateError.alreadyInCrate(title: "Blue Train")) { try database.restoreAlbum(removed) }
        #expect(try Self.dump(database) == before, "nothing half-restored")
        let library = LibraryStore(database: database)
        #expect(await library.undoRemoval(removed) == false)
        #expect(library.state.value.errorMessage?.contains("Blue Train") == true)
    }

    @Test func removingAnAlbumThatIsGoneDoesNothing() async throws {
        let database = try AppDatabase.inMemory()
        let library = LibraryStore(database: database)
        #expect(await library.remove(albumID: 999) == nil)
        #expect(library.state.value.errorMessage == nil)
        #expect(library.state.value.undoableRemoval == nil)
    }
}
