import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("The CDs wallet")
struct CDWalletTests {
    @Test("Entries of every kind resolve to whole albums, sorted by artist sort key, with diagnostics")
    func entriesAndOrder() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        // An album by "A Band" sorts under "band", before "double".
        try AudioFixtures.flac(at: fixture.root + "/A Band/Zebra/01.flac", tags: AudioFixtures.tags(artist: "A Band", album: "Zebra", title: "Z", track: 1))
        _ = try fixture.scan()
        let playlist = """
        #EXTM3U
        #EXTINF:1,relative entry, one track of a two-disc album
        Double/Two Discs/CD2/a.flac
        \(fixture.root)/Tagged Artist/Three Songs/02.flac
        file://\(MusicFile.uri(forPath: fixture.root + "/The Untagged/Nameless Album/01 - First.flac").dropFirst(7))
        Tagged Artist/Three Songs/03.flac
        A Band/Zebra/01.flac
        Missing/Nowhere.flac
        http://example.com/stream.mp3
        """
        try playlist.write(toFile: fixture.root + "/CDs.m3u", atomically: true, encoding: .utf8)
        let wallet = try CDWalletBuilder.build(folders: [fixture.root], database: fixture.database)
        #expect(wallet.choice == "The only \"CDs\" playlist.")
        // Untagged's folder artist is "The Untagged": sorted as "untagged"; Tagged Artist as "tagged artist".
        #expect(wallet.discs.map(\.title) == ["Zebra", "Two Discs", "Three Songs", "Nameless Album"])
        let two = try #require(wallet.discs.first { $0.title == "Two Discs" })
        #expect(two.discCount == 2 && two.trackCount == 4)
        #expect(two.crateAlbumID == fixture.twoDiscs)
        #expect(wallet.resolvedCount == 5)
        #expect(wallet.entries.map(\.problem) == [nil, nil, nil, nil, nil, "file not found", "not a local file"])
    }

    @Test("Several CDs playlists: most recently modified, then most entries, then path; the reason is recorded")
    func collisionRule() throws {
        let older = WalletPlaylist(path: "/m/a/CDs.m3u", modifiedNs: 1, itemCount: 9)
        let newer = WalletPlaylist(path: "/m/b/cds.xspf", modifiedNs: 2, itemCount: 1)
        #expect(CDWalletBuilder.choose([older, newer]).0 == newer)
        #expect(CDWalletBuilder.choose([older, newer]).1.contains("most recently modified"))
        let bigger = WalletPlaylist(path: "/m/c/CDs.m3u8", modifiedNs: 2, itemCount: 5)
        #expect(CDWalletBuilder.choose([newer, bigger]).0 == bigger)
        #expect(CDWalletBuilder.choose([newer, bigger]).1.contains("most entries"))
        let twin = WalletPlaylist(path: "/m/a/CDs.m3u8", modifiedNs: 2, itemCount: 5)
        #expect(CDWalletBuilder.choose([bigger, twin]).0 == twin)
        #expect(CDWalletBuilder.choose([]).0 == nil)
    }

    @Test("XSPF locations and a missing playlist")
    func xspfAndMissing() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        #expect(try CDWalletBuilder.build(folders: [fixture.root], database: fixture.database).playlist == nil)
        let uri = MusicFile.uri(forPath: fixture.root + "/Tagged Artist/Three Songs/01.flac")
        let xspf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
        <track><location>\(uri)</location></track>
        <track><location>Double/Two%20Discs/CD1/b.flac</location></track>
        </trackList></playlist>
        """
        try xspf.write(toFile: fixture.root + "/cds.xspf", atomically: true, encoding: .utf8)
        let wallet = try CDWalletBuilder.build(folders: [fixture.root], database: fixture.database)
        // XSPF locations are URI references: the relative one's %20 is a space.
        #expect(wallet.discs.map(\.title) == ["Two Discs", "Three Songs"])
        #expect(wallet.unresolvedCount == 0)
    }
}
