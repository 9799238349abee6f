import Foundation
import Testing
@testable import CrateCore

@Suite("Key tracks in the track list")
struct KeyTracksTests {
    private func track(_ id: Int64, _ title: String) -> Track {
        Track(id: id, albumID: 1, disc: 1, position: Int(id), number: String(id), title: title, durationMs: 1000)
    }

    @Test func titlesMatchLooselyAsAReviewerWritesThem() {
        let tracks = [track(1, "Second Hand News"), track(2, "Dreams (2004 Remaster)"), track(3, "Don't Stop"),
                      track(4, "The Chain"), track(5, "Songbird")]
        let ids = KeyTracks.ids(in: tracks, named: ["dreams", "Dont Stop", "THE CHAIN!", "Go Your Own Way"])
        #expect(ids == [2, 3, 4])
    }

    @Test func noReviewOrEmptyNamesMarkNothing() {
        let tracks = [track(1, "Dreams")]
        #expect(KeyTracks.ids(in: tracks, named: []).isEmpty)
        #expect(KeyTracks.ids(in: tracks, named: ["", "()"]).isEmpty)
        var state = AlbumDetailState()
        state.tracks = tracks
        #expect(state.keyTrackIDs.isEmpty)
    }
}
