import CrateCore
import Foundation
import Testing

@Suite("Listens from the playback bar")
@MainActor
struct PlaybackListenRecorderTests {
    @Test func aTrackIsAnnouncedAndBecomesAListenAtItsTime() {
        let clock = ManualPlaybackClock(startDate: Date(timeIntervalSince1970: 1_700_000_000))
        let state = ObservableValue(PlaybackState())
        var events: [ListenEvent] = []
        let recorder = PlaybackListenRecorder(state: state, clock: clock) { events.append($0) }
        let album = Album(id: 3, title: "LP", artist: "Band")
        let long = Track(albumID: 3, position: 1, title: "Long", durationMs: 600_000)
        let short = Track(albumID: 3, position: 2, title: "Short", durationMs: 29_000)
        state.update { $0.status = .playing; $0.nowPlayingAlbum = album; $0.nowPlayingTrack = long }
        #expect(events == [.playingNow(ListenTrack(track: long, album: album))])
        clock.advance(byMs: 100_000)
        state.update { $0.status = .paused }
        clock.advance(byMs: 500_000)
        state.update { $0.status = .playing }
        clock.advance(byMs: 139_999)
        #expect(events.count == 1)
        clock.advance(byMs: 1)
        #expect(events.last == .listen(ListenTrack(track: long, album: album), listenedAt: clock.startDate))
        state.update { $0.nowPlayingTrack = short }
        clock.advance(byMs: 29_000)
        state.update { $0.status = .stopped; $0.nowPlayingTrack = nil }
        #expect(events.count == 3)
        _ = recorder
    }
}
