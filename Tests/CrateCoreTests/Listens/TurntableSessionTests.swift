import CrateCore
import Foundation
import Testing

@Suite("The record on the turntable")
@MainActor
struct TurntableSessionTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    /// A two-side LP: A1 3:00, A2 0:29.9 (never a listen), A3 8:00; B1 4:00, B2 2:00.
    static let tracks = [("A1", 180_000), ("A2", 29_900), ("A3", 480_000), ("B1", 240_000), ("B2", 120_000)].enumerated().map {
        Track(albumID: 7, disc: 1, position: $0.offset + 1, number: $0.element.0, title: "Song \($0.element.0)", durationMs: $0.element.1,
              recordingID: "0000000\($0.offset)-0000-4000-8000-000000000000")
    }
    static let album = Album(id: 7, musicBrainzReleaseID: "00000007-0000-4000-8000-000000000001", title: "The LP", artist: "The Band")

    final class Events {
        var all: [(ms: Int, event: ListenEvent)] = []
        var listens: [(ms: Int, title: String, at: Date)] {
            all.compactMap { if case .listen(let track, let at) = $0.event { return ($0.ms, track.title, at) } else { return nil } }
        }
        var nowPlaying: [String] {
            all.compactMap { if case .playingNow(let track) = $0.event { return track.title } else { return nil } }
        }
    }

    func session() -> (TurntableSession, ManualPlaybackClock, Events) {
        let clock = ManualPlaybackClock(startDate: Self.start)
        let events = Events()
        let session = TurntableSession(album: Self.album, tracks: Self.tracks, clock: clock) { [clock] in events.all.append((clock.nowMs, $0)) }
        return (session, clock, events)
    }

    @Test func aTwoSideLPIsListenedToSideBySide() throws {
        let (session, clock, events) = session()
        try session.start()
        #expect(session.state.value == .playing(side: "A", track: 0, paused: false))
        clock.advance(byMs: 3_600_000)
        // Side A ran out and the turntable waits: no side B on its own.
        #expect(session.state.value == .sideFinished(side: "A", next: "B"))
        #expect(events.nowPlaying == ["Song A1", "Song A2", "Song A3"])
        // A1 at half of 3:00; A2 never; A3 (8:00) at 4 minutes into it.
        #expect(events.listens.map(\.ms) == [90_000, 209_900 + 240_000])
        #expect(events.listens.map(\.at) == [Self.start, Self.start.addingTimeInterval(209.9)])
        #expect(events.listens.first.map { _ in
            if case .listen(let track, _) = events.all.first(where: { if case .listen = $0.event { true } else { false } })!.event {
                return track.releaseID == Self.album.musicBrainzReleaseID && track.trackNumber == "A1" && track.artist == "The Band"
            }
            return false
        } == true)
        let flipAt = clock.nowMs
        try session.flip()
        clock.advance(byMs: 3_600_000)
        #expect(session.state.value == .finished)
        #expect(events.listens.map(\.title) == ["Song A1", "Song A3", "Song B1", "Song B2"])
        #expect(events.listens.suffix(2).map(\.ms) == [flipAt + 120_000, flipAt + 240_000 + 60_000])
        #expect(throws: TurntableError.noMoreSides) { try session.flip() }
    }

    @Test func pauseSkipAndStop() throws {
        let (session, clock, events) = session()
        try session.start(side: "b")
        clock.advance(byMs: 100_000)
        session.pause()
        clock.advance(byMs: 1_000_000)
        #expect(events.listens.isEmpty)
        session.resume()
        clock.advance(byMs: 19_999)
        #expect(events.listens.isEmpty)
        clock.advance(byMs: 1)
        #expect(events.listens.map(\.title) == ["Song B1"])
        // Skipped before its minute: B2 is announced, never a listen.
        session.skip()
        #expect(session.state.value == .playing(side: "B", track: 1, paused: false))
        clock.advance(byMs: 59_999)
        session.stop()
        clock.advance(byMs: 1_000_000)
        #expect(session.state.value == .stopped)
        #expect(events.listens.count == 1 && events.nowPlaying == ["Song B1", "Song B2"])
        #expect(throws: TurntableError.unknownSide("C", known: ["A", "B"])) { try session.start(side: "C") }
    }
}
