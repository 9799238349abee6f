import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Adding music-folder albums to the crate")
struct MusicAlbumAdderTests {
    @Test("Only albums no crate album matches are added, with their tracks in disc/track order; a second run adds nothing")
    func addsUnmatched() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        let release = "66666666-6666-4666-8666-666666666666"
        for (disc, track) in [(2, 1), (1, 2), (1, 1)] {
            try AudioFixtures.flac(at: fixture.root + "/New/Tagged/d\(disc)t\(track).flac",
                                   tags: AudioFixtures.tags(artist: "New", album: "Tagged", title: "D\(disc)T\(track)", track: track, disc: disc, releaseID: release))
        }
        try AudioFixtures.flac(at: fixture.root + "/Loose/Untagged One/01.flac")
        _ = try fixture.scan()
        let before = try fixture.database.allAlbums().count

        let preview = try MusicAlbumAdder.add(database: fixture.database, dryRun: true)
        #expect(preview.map(\.title) == ["Untagged One", "Tagged"])
        #expect(try fixture.database.allAlbums().count == before)

        let added = try MusicAlbumAdder.add(database: fixture.database)
        #expect(added.count == 2)
        let albums = try fixture.database.allAlbums()
        #expect(albums.count == before + 2)
        let tagged = try #require(albums.first { $0.title == "Tagged" })
        #expect(tagged.musicBrainzReleaseID == release)
        #expect(tagged.artworkStatus == .pending)
        let untagged = try #require(albums.first { $0.title == "Untagged One" })
        #expect(untagged.artworkStatus == .unavailable)
        let tracks = try fixture.database.tracks(forAlbum: try #require(tagged.id))
        #expect(tracks.map(\.title) == ["D1T1", "D1T2", "D2T1"])
        // Now they match: nothing more to add, and the crate's new albums play from their files.
        #expect(try MusicAlbumAdder.add(database: fixture.database).isEmpty)
        if case .matched = AlbumMatcher(files: try fixture.database.readableMusicFiles()).match(tagged) {} else {
            Issue.record("the added album does not match its files")
        }
    }
}
