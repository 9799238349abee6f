import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// An album with no track list of its own, but files in the music folder: the detail pane lists
/// the files' tracks, which are what Play plays (not "No track list for this album yet").
@Suite("Detail tracks from files") @MainActor
struct DetailTracksFromFilesTests {
    @Test("Without a track list the files' tracks are shown, in disc and track order; a track list wins")
    func tracksFromFiles() async throws {
        let temp = try TemporaryDirectory()
        let fixture = try MusicFixture(directory: temp.url)
        _ = try fixture.scan()
        let store = AlbumDetailStore(database: fixture.database)
        await store.show(albumID: fixture.untagged)
        #expect(store.state.value.tracks.isEmpty, "without files to look at, nothing is made up")

        store.albumFiles = .musicFolder(fixture.database)
        await store.show(albumID: fixture.untagged)
        #expect(store.state.value.tracks.map(\.title) == ["First", "Second"])
        await store.show(albumID: fixture.twoDiscs)
        #expect(store.state.value.tracks.map(\.title) == ["D1T1", "D1T2", "D2T1", "D2T2"])
        // Not in the music folder: still no tracks (and no error).
        await store.show(albumID: fixture.absent)
        #expect(store.state.value.tracks.isEmpty)
        #expect(store.state.value.album?.id == fixture.absent)
        // The library's own track list wins over the files.
        try fixture.database.replaceTracks([Track(albumID: fixture.untagged, position: 1, title: "From MusicBrainz")], forAlbum: fixture.untagged)
        await store.show(albumID: fixture.untagged)
        #expect(store.state.value.tracks.map(\.title) == ["From MusicBrainz"])
    }
}
