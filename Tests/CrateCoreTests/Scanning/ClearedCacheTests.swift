import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("A cleared artwork cache")
struct ClearedCacheTests {
    /// Bug: after `rm -rf` of the cache folder the library still said artwork `available`, repair
    /// found nothing, and tier 0 no longer recognised known covers (it verifies against the
    /// artwork file). Repair now checks the files, marks the missing ones pending and fetches them
    /// again; a tier-0 hit whose file is gone marks it too. The cover hashes stay in the library.
    @Test("Repair fetches artwork removed from the cache, and tier 0 recognises the cover again")
    func repairRestoresArtworkAndTierZero() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        let photo = ImageFixtures.url("photos/cover-00-photo-0.jpg")
        let first = try await pipeline.scan(file: photo) { _ in }
        #expect(first.entry.album.artworkStatus == .available)

        try FileManager.default.removeItem(at: h.directory.paths.cacheDirectory)
        let summary = await pipeline.repairPendingDetails()
        #expect(summary.tried == 1 && summary.completed == 1)
        let album = try #require(try h.database.album(id: first.entry.album.id ?? -1))
        #expect(album.artworkStatus == .available)
        let file = try #require(album.artworkURL(in: h.directory.paths.artworkDirectory))
        #expect(FileManager.default.fileExists(atPath: file.path))

        let again = try await h.pipeline(identifier: nil).scan(file: photo) { _ in }
        #expect(again.entry.scan.method == .localMatch)
    }
}
