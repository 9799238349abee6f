import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Albums of the music folder whose files carry a MusicBrainz release id are added with their
/// artwork pending; the repair pass asks the Cover Art Archive (the loopback fixture server here).
/// When the archive has no art (404), the art the files carry is used, as for albums without a
/// release id; when it has art, the archive's art wins; a damaged local image gives the
/// placeholder, never a crash.
@Suite("Music-folder albums with a release id: local art when the Cover Art Archive has none")
struct MusicReleaseArtFallbackTests {
    static let releaseID = "44444444-4444-4444-8444-444444444444"

    /// The harness's library with one album on disk (two tagged tracks with the release id and
    /// whatever `prepare` puts in its folder), indexed and added to the crate.
    static func addAlbum(_ h: PipelineHarness, prepare: (String) throws -> Void) throws -> Album {
        let dir = h.directory.url.appendingPathComponent("music/Tagged/Has Release").path
        for n in 1...2 {
            try AudioFixtures.flac(at: "\(dir)/0\(n).flac",
                                   tags: AudioFixtures.tags(artist: "Tagged", album: "Has Release", title: "Song \(n)", track: n, releaseID: releaseID))
        }
        try prepare(dir)
        _ = try MusicIndexer.scan(folders: [h.directory.url.appendingPathComponent("music").path], database: h.database)
        let added = try MusicAlbumAdder.add(database: h.database, artwork: ArtworkCache(paths: h.directory.paths))
        #expect(added.count == 1 && added.first?.hasReleaseID == true && added.first?.hasLocalArtwork == false)
        let album = try #require(try h.database.allAlbums().first { $0.title == "Has Release" })
        #expect(album.artworkStatus == .pending && album.musicBrainzReleaseID == releaseID)
        return album
    }

    /// Cover Art Archive answers for the release: 404 (no art), or the 307 chain to `image`.
    static func serveCoverArt(_ h: PipelineHarness, image: Data?) {
        let id = releaseID
        guard let image else {
            h.server.route("/caa/release/\(id)", responses: [.text("Not Found", status: 404)])
            return
        }
        h.server.route("/caa/release/\(id)", responses: [.redirect(to: "/storage/\(id)/index.json")])
        h.server.route("/storage/\(id)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: id, imageBase: h.server.url("/caa")))])
        h.server.route("/caa/img/\(id)/30688716524-500.jpg", responses: [.redirect(to: "/storage/\(id)/front-500.jpg")])
        h.server.route("/storage/\(id)/front-500.jpg", responses: [.data(image)])
    }

    static func repaired(_ h: PipelineHarness, _ album: Album) async throws -> Album {
        let summary = await h.pipeline(identifier: nil).repairPendingDetails()
        #expect(summary.tried == 1 && summary.stoppedEarly == nil)
        let id = try #require(album.id)
        return try #require(try h.database.album(id: id))
    }

    @Test("Cover Art Archive 404: the cover.jpg in the album's folder becomes its artwork")
    func notFoundUsesTheFolderCover() async throws {
        let h = try PipelineHarness()
        let local = try MusicLocalArtTests.jpeg(channel: 1)
        let album = try Self.addAlbum(h) { dir in try local.write(to: URL(fileURLWithPath: dir + "/cover.jpg")) }
        Self.serveCoverArt(h, image: nil)
        let after = try await Self.repaired(h, album)
        #expect(h.server.requests.contains { $0.path == "/caa/release/\(Self.releaseID)" }, "the archive was asked first")
        #expect(after.artworkStatus == .available)
        let artwork = try #require(after.artworkURL(in: h.directory.paths.artworkDirectory))
        #expect(try JPEGCodec.probe(Data(contentsOf: artwork)).width == 300)
        #expect(try h.database.coverHash(forAlbum: after.id ?? -1) == ImagePreparer().prepareArtwork(local).hash)
        #expect(await h.pipeline(identifier: nil).repairPendingDetails().tried == 0, "nothing left to repair")
    }

    @Test("Cover Art Archive 404: a picture embedded in the files is used when the folder has none")
    func notFoundUsesTheEmbeddedPicture() async throws {
        let h = try PipelineHarness()
        let picture = try MusicLocalArtTests.jpeg(channel: 2)
        let album = try Self.addAlbum(h) { dir in #expect(TagReader.embedPicture(picture, in: dir + "/02.flac")) }
        Self.serveCoverArt(h, image: nil)
        let after = try await Self.repaired(h, album)
        #expect(after.artworkStatus == .available)
        #expect(try h.database.coverHash(forAlbum: after.id ?? -1) == ImagePreparer().prepareArtwork(picture).hash)
    }

    @Test("Cover Art Archive 200: its art is used, not the folder's")
    func archiveArtWins() async throws {
        let h = try PipelineHarness()
        let local = try MusicLocalArtTests.jpeg(channel: 1)
        let album = try Self.addAlbum(h) { dir in try local.write(to: URL(fileURLWithPath: dir + "/cover.jpg")) }
        Self.serveCoverArt(h, image: h.coverData)
        let after = try await Self.repaired(h, album)
        #expect(after.artworkStatus == .available)
        let hash = try h.database.coverHash(forAlbum: after.id ?? -1)
        #expect(hash == (try ImagePreparer().prepareArtwork(h.coverData).hash))
        #expect(hash != (try ImagePreparer().prepareArtwork(local).hash))
    }

    @Test("Cover Art Archive 404 and only damaged local images: the placeholder, and nothing crashes")
    func notFoundWithDamagedLocalArtGivesThePlaceholder() async throws {
        let h = try PipelineHarness()
        let album = try Self.addAlbum(h) { dir in
            var broken = try MusicLocalArtTests.jpeg()
            broken.replaceSubrange(200..<broken.count, with: Data(repeating: 0x5A, count: broken.count - 200))
            try broken.write(to: URL(fileURLWithPath: dir + "/cover.jpg"))
            #expect(TagReader.embedPicture(broken, in: dir + "/01.flac"))
            try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/folder.jpg"))
            try Data().write(to: URL(fileURLWithPath: dir + "/front.png"))
        }
        Self.serveCoverArt(h, image: nil)
        let after = try await Self.repaired(h, album)
        #expect(after.artworkStatus == .unavailable)
        #expect(after.artworkPath == nil)
        #expect(try h.database.coverHash(forAlbum: after.id ?? -1) == nil)
    }

    @Test("Cover Art Archive 404 for an album with no files in the music folder: the placeholder")
    func notFoundWithoutFilesGivesThePlaceholder() async throws {
        let h = try PipelineHarness()
        let album = try h.database.saveScan(of: Album(musicBrainzReleaseID: Self.releaseID, title: "Elsewhere", artist: "Nobody"), method: .vision).album
        Self.serveCoverArt(h, image: nil)
        h.server.route("/ws/2/release/\(Self.releaseID)", responses: [.text("Not Found", status: 404)])
        _ = await h.pipeline(identifier: nil).repairPendingDetails()
        let id = try #require(album.id)
        let after = try #require(try h.database.album(id: id))
        #expect(after.artworkStatus == .unavailable)
    }
}
