import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Music diagnostics and the CDs store")
@MainActor
struct MusicDiagnosticsTests {
    @Test("Format support names what is missing and the package that brings it")
    func formats() {
        let installed: Set<String> = ["flacparse", "flacdec", "oggdemux", "vorbisdec", "mpegaudioparse", "avdec_mp3", "qtdemux",
                                      "wavparse", "playbin", "audioconvert", "audioresample"]
        let support = AudioFormatSupport.check { installed.contains($0) }
        let byFormat = Dictionary(uniqueKeysWithValues: support.map { ($0.format, $0) })
        #expect(byFormat["FLAC"]?.isAvailable == true)
        // Any one decoder of a group is enough (avdec_mp3 stands in for mpg123audiodec).
        #expect(byFormat["MP3"]?.isAvailable == true)
        #expect(byFormat["Opus"]?.missing == ["opusdec or avdec_opus"])
        #expect(byFormat["M4A / AAC"]?.missing == ["avdec_aac or faad or fdkaacdec"])
        #expect(byFormat["M4A / AAC"]?.package == "gstreamer1.0-libav")
        let nothing = AudioFormatSupport.check { _ in false }
        #expect(nothing.allSatisfy { !$0.isAvailable })
    }

    @Test("Diagnostics count the index and list crate albums with no files and ambiguous ones")
    func diagnostics() throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        // A second copy of the two-disc album makes its release-group match ambiguous.
        for disc in 1...2 {
            try AudioFixtures.flac(at: fixture.root + "/Copy/Two Discs/CD\(disc)/a.flac",
                                   tags: AudioFixtures.tags(artist: "Double", album: "Two Discs", title: "x", track: 1, disc: disc,
                                                            releaseID: "55555555-5555-4555-8555-555555555555",
                                                            releaseGroupID: MusicFixture.releaseGroupID))
        }
        _ = try fixture.scan()
        let missingFolder = temp.url.appendingPathComponent("nowhere").path
        let diagnostics = try MusicDiagnostics.build(folders: [fixture.root, missingFolder], database: fixture.database, formats: [])
        #expect(diagnostics.folders.map(\.exists) == [true, false])
        #expect(diagnostics.counts.files == 11)
        #expect(diagnostics.unmatched.map(\.albumID) == [fixture.absent])
        #expect(diagnostics.ambiguous.map(\.albumID) == [fixture.twoDiscs])
        #expect(diagnostics.ambiguous.first?.folders.count == 2)
        #expect(diagnostics.matchedCount == 2)
        #expect(diagnostics.wallet.playlist == nil)
    }

    @Test("The store shows the wallet and rebuilds it when the music index changes")
    func storeFollowsTheIndex() async throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        try "Tagged Artist/Three Songs/01.flac\nThe Untagged/Nameless Album/02 - Second.flac\nGone/x.flac\n"
            .write(toFile: fixture.root + "/CDs.m3u8", atomically: true, encoding: .utf8)
        let root = fixture.root
        let store = CDsStore(database: fixture.database, folders: { [root] })
        store.start()
        #expect(await waitUntil(store.state) { store.state.value.phase == .loaded } != nil)
        let wallet = try #require(store.state.value.wallet)
        #expect(wallet.discs.map(\.title) == ["Three Songs", "Nameless Album"])
        #expect(wallet.entries.last?.problem == "file not found")
        #expect(store.playableAlbumIDs == [fixture.threeSongs, fixture.untagged])

        // The missing album arrives in the folder and a scan indexes it: the wallet grows.
        try AudioFixtures.flac(at: fixture.root + "/Gone/x.flac", tags: AudioFixtures.tags(artist: "Gone", album: "Back", title: "x", track: 1))
        _ = try fixture.scan()
        #expect(await waitUntil(store.state) { store.state.value.wallet?.discs.count == 3 } != nil)
        #expect(store.state.value.wallet?.discs.first?.artist == "Gone")
        #expect(store.state.value.wallet?.discs.first?.crateAlbumID == nil)

        // "Add to Crate" on that disc: it gets a crate album and joins what plays.
        let gone = try #require(store.state.value.wallet?.discs.first)
        let id = try #require(await store.addToCrate(discID: gone.id))
        #expect(await waitUntil(store.state) { store.state.value.wallet?.discs.first?.crateAlbumID == id } != nil)
        #expect(store.playableAlbumIDs.first == id)
        #expect(await store.addToCrate(discID: gone.id) == nil)
        #expect(store.state.value.message == "This album is already in your crate.")
        store.stop()
    }
}
