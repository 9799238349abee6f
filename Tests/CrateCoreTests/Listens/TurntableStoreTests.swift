import CrateCore
import Foundation
import Testing

/// "Spin This Record" in the window: the store over `TurntableSession`, on the manual clock.
@Suite("The turntable in the window")
@MainActor
struct TurntableStoreTests {
    struct Rig {
        let store: TurntableStore
        let clock: ManualPlaybackClock
        let albumID: Int64
        let events: TurntableSessionTests.Events
    }

    /// An album saved with the two-side LP's track list (A1–A3, B1–B2).
    func rig(tracks: [Track] = TurntableSessionTests.tracks) throws -> Rig {
        let database = try AppDatabase.inMemory()
        let album = try database.saveScan(of: Album(title: "The LP", artist: "The Band"), method: .manual).album
        let id = try #require(album.id)
        try database.replaceTracks(tracks.map { Track(albumID: id, disc: $0.disc, position: $0.position, number: $0.number, title: $0.title, durationMs: $0.durationMs) },
                                   forAlbum: id)
        let clock = ManualPlaybackClock(startDate: TurntableSessionTests.start)
        let events = TurntableSessionTests.Events()
        let store = TurntableStore(database: database, clock: clock) { [clock] in events.all.append((clock.nowMs, $0)) }
        return Rig(store: store, clock: clock, albumID: id, events: events)
    }

    @Test func aRecordIsFollowedSideBySideAndShownAsPlayback() async throws {
        let rig = try rig()
        await rig.store.spin(albumID: rig.albumID)
        var state = rig.store.state.value
        #expect(state.phase == .playing)
        #expect(state.side == "A")
        #expect(state.track?.number == "A1")
        #expect(state.durationMs == 180_000)
        #expect(state.playback.status == .playing)
        #expect(state.playback.nowPlayingTrack?.title == "Song A1")
        #expect(state.playback.nowPlayingAlbum?.title == "The LP")

        // The position moves once a second while the needle is down.
        rig.clock.advance(byMs: 5_000)
        #expect(rig.store.state.value.positionMs == 5_000)

        // Paused: the position holds; the button carries on.
        rig.store.togglePlay()
        #expect(rig.store.state.value.phase == .paused)
        #expect(rig.store.state.value.playback.status == .paused)
        rig.clock.advance(byMs: 60_000)
        #expect(rig.store.state.value.positionMs == 5_000)
        rig.store.togglePlay()
        #expect(rig.store.state.value.phase == .playing)

        // Side A runs out: the turntable waits for the record to be turned over.
        rig.clock.advance(byMs: 3_600_000)
        state = rig.store.state.value
        #expect(state.phase == .sideOver)
        #expect(state.side == "A")
        #expect(state.nextSide == "B")
        #expect(state.playback.status == .paused)
        #expect(state.playback.nowPlayingTrack == nil)
        #expect(rig.events.nowPlaying == ["Song A1", "Song A2", "Song A3"])
        #expect(rig.events.listens.map(\.title) == ["Song A1", "Song A3"])

        // Play at a side's end is the flip.
        rig.store.togglePlay()
        #expect(rig.store.state.value.phase == .playing)
        #expect(rig.store.state.value.side == "B")
        #expect(rig.store.state.value.track?.number == "B1")
        rig.store.skip()
        #expect(rig.store.state.value.track?.number == "B2")
        rig.clock.advance(byMs: 3_600_000)
        #expect(rig.store.state.value.phase == .finished)
        #expect(rig.store.state.value.isActive)
        #expect(rig.store.state.value.playback.status == .stopped)
        // B1 was skipped before it counted; B2 played out.
        #expect(rig.events.listens.map(\.title) == ["Song A1", "Song A3", "Song B2"])

        rig.store.stop()
        #expect(rig.store.state.value == TurntableStore.State())
        #expect(!rig.store.state.value.isActive)
    }

    @Test func stoppingMidTrackEndsItWithoutAListenAndNothingRunsOn() async throws {
        let rig = try rig()
        await rig.store.spin(albumID: rig.albumID)
        rig.clock.advance(byMs: 10_000)
        rig.store.stop()
        rig.clock.advance(byMs: 3_600_000)
        #expect(rig.store.state.value.phase == .idle)
        #expect(rig.events.nowPlaying == ["Song A1"])
        #expect(rig.events.listens.isEmpty)
    }

    @Test func anAlbumWithoutATrackListOrNotInTheLibrarySaysSo() async throws {
        let rig = try rig(tracks: [])
        await rig.store.spin(albumID: rig.albumID)
        #expect(rig.store.state.value.phase == .idle)
        #expect(rig.store.state.value.message == TurntableError.noTracks.errorDescription)

        await rig.store.spin(albumID: 9_999)
        #expect(rig.store.state.value.phase == .idle)
        #expect(rig.store.state.value.message == UserMessage.text(for: PlaybackError.albumNotFound(9_999)))
        #expect(rig.events.all.isEmpty)
    }

    @Test func spinningAnotherRecordTakesTheFirstOff() async throws {
        let rig = try rig()
        await rig.store.spin(albumID: rig.albumID)
        rig.clock.advance(byMs: 100_000)
        await rig.store.spin(albumID: rig.albumID, side: "B")
        #expect(rig.store.state.value.side == "B")
        #expect(rig.store.state.value.positionMs == 0)
        // A1 had counted (half of 3:00) before the record was changed; nothing of side A runs on.
        rig.clock.advance(byMs: 30_000)
        #expect(rig.events.listens.map(\.title) == ["Song A1"])
        #expect(rig.events.nowPlaying == ["Song A1", "Song B1"])
    }
}
