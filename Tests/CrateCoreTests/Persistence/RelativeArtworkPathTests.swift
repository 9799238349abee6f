import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Relative artwork paths")
struct RelativeArtworkPathTests {
    private static let mbid = "a6a1e1d8-7fa0-4b6a-9d1b-5b8f3c1f0c01"

    /// A library file as a build before relative paths left it: migrated up to `v5-batch`, with
    /// absolute artwork paths under `cache`.
    private func writeLegacyLibrary(paths: CratePaths, cache: URL) throws {
        try CratePaths.ensureWritable(paths.dataDirectory)
        let queue = try DatabaseQueue(path: paths.databaseURL.path)
        try AppDatabase.migrator.migrate(queue, upTo: "v5-batch")
        try queue.write { db in
            let insert = "INSERT INTO album (title, artist, artistSortKey, artworkStatus, artworkPath, thumbnailPath, createdAt) VALUES (?, ?, ?, 'available', ?, ?, ?)"
            let artwork = cache.appendingPathComponent("artwork/\(Self.mbid)-500.jpg").path
            let thumbnail = cache.appendingPathComponent("artwork/\(Self.mbid)-200.jpg").path
            try db.execute(sql: insert, arguments: ["Rumours", "Fleetwood Mac", "fleetwood mac", artwork, thumbnail, Date()])
            try db.execute(sql: insert, arguments: ["Tusk", "Fleetwood Mac", "fleetwood mac", "/srv/pictures/tusk.jpg", nil, Date()])
            try db.execute(sql: insert, arguments: ["Mirage", "Fleetwood Mac", "fleetwood mac", nil, nil, Date()])
        }
    }

    private func albums(_ database: AppDatabase) throws -> [String: Album] {
        let all = try database.reader.read { try Album.fetchAll($0) }
        return Dictionary(uniqueKeysWithValues: all.map { ($0.title, $0) })
    }

    @Test func oldAbsoluteRowsUnderTheArtworkCacheBecomeRelative() throws {
        let dir = try TemporaryDirectory()
        try writeLegacyLibrary(paths: dir.paths, cache: dir.paths.cacheDirectory)
        let database = try AppDatabase.open(paths: dir.paths)
        let albums = try albums(database)
        #expect(albums["Rumours"]?.artworkPath == "\(Self.mbid)-500.jpg")
        #expect(albums["Rumours"]?.thumbnailPath == "\(Self.mbid)-200.jpg")
        // Not in an artwork cache: left absolute, and the resolver uses it as it is.
        #expect(albums["Tusk"]?.artworkPath == "/srv/pictures/tusk.jpg")
        #expect(albums["Tusk"]?.artworkURL(in: dir.paths.artworkDirectory)?.path == "/srv/pictures/tusk.jpg")
        #expect(albums["Mirage"]?.artworkPath == nil)
        #expect(albums["Mirage"]?.artworkURL(in: dir.paths.artworkDirectory) == nil)
    }

    @Test func aLibraryWhoseCacheDirectoryMovedStillFindsItsArtwork() throws {
        let dir = try TemporaryDirectory()
        let oldCache = dir.url.appendingPathComponent("old-cache")
        try FileManager.default.createDirectory(at: oldCache.appendingPathComponent("artwork"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF]).write(to: oldCache.appendingPathComponent("artwork/\(Self.mbid)-500.jpg"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: oldCache.appendingPathComponent("artwork/\(Self.mbid)-200.jpg"))
        try writeLegacyLibrary(paths: dir.paths, cache: oldCache)

        // The user moves the cache ($XDG_CACHE_HOME or CRATE_CACHE_DIR) before upgrading.
        try FileManager.default.moveItem(at: oldCache, to: dir.paths.cacheDirectory)
        let database = try AppDatabase.open(paths: dir.paths)
        let album = try #require(try albums(database)["Rumours"])
        let artwork = try #require(album.artworkURL(in: dir.paths.artworkDirectory))
        let thumbnail = try #require(album.thumbnailURL(in: dir.paths.artworkDirectory))
        #expect(FileManager.default.fileExists(atPath: artwork.path))
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))
        #expect(artwork.deletingLastPathComponent().standardizedFileURL == dir.paths.artworkDirectory.standardizedFileURL)
    }

    @Test func theCacheStoresFileNamesAndResolvesThemInItsDirectory() throws {
        let dir = try TemporaryDirectory()
        let cache = ArtworkCache(paths: dir.paths)
        let id = try #require(MBID(validating: Self.mbid))
        #expect(cache.storedPath(for: cache.artworkURL(for: id)) == "\(Self.mbid)-500.jpg")
        #expect(cache.url(forStoredPath: "\(Self.mbid)-500.jpg") == cache.artworkURL(for: id))
        #expect(cache.storedPath(for: URL(fileURLWithPath: "/srv/pictures/tusk.jpg")) == "/srv/pictures/tusk.jpg")
        #expect(cache.url(forStoredPath: "") == nil)
    }

    @Test func legacyPathsAreRecognisedByTheCacheFolderName() {
        let paths = CratePaths(dataDirectory: URL(fileURLWithPath: "/d"), cacheDirectory: URL(fileURLWithPath: "/c"),
                               configDirectory: URL(fileURLWithPath: "/g"), stateDirectory: URL(fileURLWithPath: "/s"))
        #expect(paths.artworkDirectory.lastPathComponent == ArtworkCache.legacyDirectoryName)
        #expect(ArtworkCache.storedPath(forLegacyPath: "/home/u/.cache/crate/artwork/x-500.jpg") == "x-500.jpg")
        #expect(ArtworkCache.storedPath(forLegacyPath: "x-500.jpg") == "x-500.jpg")
        #expect(ArtworkCache.storedPath(forLegacyPath: "/home/u/artworks/x.jpg") == "/home/u/artworks/x.jpg")
    }
}
