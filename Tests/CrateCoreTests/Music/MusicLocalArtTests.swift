import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// `crate music add` for albums with no release id: the folder's cover or the files' embedded
/// picture, through the same decoder as downloaded art; damaged pictures give no art, no crash.
@Suite("Music-folder albums: folder and embedded artwork")
struct MusicLocalArtTests {
    /// A real JPEG made at test time: a 300 × 300 gradient in one colour channel.
    static func jpeg(channel: Int = 0) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: 300 * 300 * 3)
        for y in 0..<300 {
            for x in 0..<300 { pixels[(y * 300 + x) * 3 + channel] = UInt8((x + y) * 255 / 600) }
        }
        return try JPEGCodec.encode(RGBImage(width: 300, height: 300, pixels: pixels))
    }

    struct Rig {
        let fixture: MusicFixture
        let cache: ArtworkCache
        let directory: URL
    }

    func rig(_ temp: TemporaryDirectory, album: String, prepare: (String) throws -> Void) throws -> Rig {
        let fixture = try MusicFixture(directory: temp.url)
        let dir = fixture.root + "/Loose/" + album
        try AudioFixtures.flac(at: dir + "/01.flac")
        try AudioFixtures.flac(at: dir + "/02.flac")
        try prepare(dir)
        _ = try fixture.scan()
        let artDir = temp.url.appendingPathComponent("artwork")
        return Rig(fixture: fixture, cache: ArtworkCache(directory: artDir), directory: artDir)
    }

    func added(_ rig: Rig, _ title: String) throws -> (MusicAlbumAdder.Added, Album) {
        let added = try MusicAlbumAdder.add(database: rig.fixture.database, artwork: rig.cache)
        let entry = try #require(added.first { $0.title == title })
        let album = try #require(try rig.fixture.database.allAlbums().first { $0.title == title })
        return (entry, album)
    }

    @Test("A cover.jpg in the album's folder (any case) becomes its artwork, with a thumbnail and a cover hash")
    func folderCover() throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, album: "With Cover") { dir in
            try Self.jpeg().write(to: URL(fileURLWithPath: dir + "/Cover.JPG"))
        }
        let (entry, album) = try added(rig, "With Cover")
        #expect(entry.hasLocalArtwork)
        #expect(album.artworkStatus == .available)
        let artwork = try #require(album.artworkURL(in: rig.directory))
        let thumbnail = try #require(album.thumbnailURL(in: rig.directory))
        #expect(artwork.lastPathComponent.hasPrefix("local-") && artwork.lastPathComponent.hasSuffix("-500.jpg"))
        #expect(try JPEGCodec.probe(Data(contentsOf: artwork)).width == 300)
        #expect(try JPEGCodec.probe(Data(contentsOf: thumbnail)).width == 200)
        #expect(try rig.fixture.database.coverHash(forAlbum: try #require(album.id)) != nil)
    }

    @Test("A picture embedded in the files is used when the folder has no cover")
    func embeddedPicture() throws {
        let temp = try TemporaryDirectory()
        let picture = try Self.jpeg(channel: 2)
        let rig = try rig(temp, album: "Embedded") { dir in
            #expect(TagReader.embedPicture(picture, in: dir + "/02.flac"))
        }
        #expect(TagReader.embeddedPicture(path: rig.fixture.root + "/Loose/Embedded/02.flac") == picture)
        #expect(TagReader.embeddedPicture(path: rig.fixture.root + "/Loose/Embedded/01.flac") == nil)
        let (entry, album) = try added(rig, "Embedded")
        #expect(entry.hasLocalArtwork)
        #expect(album.artworkStatus == .available)
        #expect(FileManager.default.fileExists(atPath: try #require(album.artworkURL(in: rig.directory)).path))
    }

    @Test("A corrupt embedded picture and a corrupt folder cover give no artwork, and nothing crashes")
    func corruptPictures() throws {
        let temp = try TemporaryDirectory()
        let rig = try rig(temp, album: "Damaged") { dir in
            // A JPEG header followed by garbage, and a "cover" that is not an image at all.
            var broken = try Self.jpeg()
            broken.replaceSubrange(200..<broken.count, with: Data(repeating: 0x5A, count: broken.count - 200))
            #expect(TagReader.embedPicture(broken, in: dir + "/01.flac"))
            try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/folder.jpg"))
            try Data(repeating: 0, count: 0).write(to: URL(fileURLWithPath: dir + "/front.png"))
        }
        let (entry, album) = try added(rig, "Damaged")
        #expect(!entry.hasLocalArtwork)
        #expect(album.artworkStatus == .unavailable)
        #expect(album.artworkPath == nil)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: rig.directory.path))?.isEmpty ?? true)
    }

    @Test("Folder images are tried cover, folder, front; other names are not artwork")
    func folderImageOrder() throws {
        let temp = try TemporaryDirectory()
        let dir = temp.url.path
        for name in ["front.png", "Folder.jpeg", "COVER.jpg", "back.jpg", "cover.txt"] {
            try Data([1]).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        #expect(MusicLocalArt.folderImages(in: dir).map { ($0 as NSString).lastPathComponent } == ["COVER.jpg", "Folder.jpeg", "front.png"])
    }
}
