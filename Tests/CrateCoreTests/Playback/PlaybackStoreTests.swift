import Foundation
import Testing
@testable import CrateCore

@Suite("PlaybackStore") @MainActor
struct PlaybackStoreTests {
    typealias F = PlaybackFixtures

    private func simulator(_ database: AppDatabase, trackLists: TrackListProvider = .unavailable) -> PlaybackSimulator {
        PlaybackSimulator(database: database, log: PlaybackLog(fileURL: nil), trackLists: trackLists)
    }

    /// Yields until `condition` holds (other main-actor tasks get to run in between).
    private func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<1_000 where !condition() { await Task.yield() }
    }

    @Test func playingFromAGridContinuesThroughEveryBatchInOrder() async throws {
        let (database, ids) = try F.library(Array(repeating: F.spec(2), count: 12))
        let sim = simulator(database)
        await sim.run(albumID: ids[2], grid: GridContext(albumIDs: ids, tappedIndex: 2))
        // Albums 3…12: the first batch (3–7), then 8–12; nothing before the tapped album, no wrap.
        #expect(try F.playedAlbums(sim.log.lines) == Array(ids[2...]))
        #expect(sim.store.state.value.nowPlayingAlbum == nil)
        #expect(sim.player.state.value.finishedQueue)
    }

    @Test func nextBatchIsPrefetchedWhenTheBatchsLastAlbumStarts() async throws {
        let (database, ids) = try F.library(Array(repeating: F.spec(2), count: 7))
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0))
        #expect(sim.store.prefetch == nil)
        sim.clock.advance(byMs: 7_999)
        #expect(sim.store.prefetch == nil) // album 4 still playing
        sim.clock.advance(byMs: 1) // albums 1–4 (2 s each) done: album 5, the batch's last, starts
        #expect(sim.store.state.value.nowPlayingAlbum?.id == ids[4])
        let prefetch = try #require(sim.store.prefetch)
        let content = await prefetch.value
        #expect(content.albumIDs == [ids[5], ids[6]])
    }

    @Test func nowPlayingIsSetOnlyAfterThePlayerHasStarted() async throws {
        let (database, ids) = try F.library([F.spec(3)])
        let player = GatedPlayer()
        let store = PlaybackStore(database: database, player: player)
        let playing = Task { await store.play(albumID: ids[0]) }
        await waitUntil { player.isWaiting }
        #expect(player.state.value.status == .playing)
        #expect(store.state.value.nowPlayingAlbum == nil)
        #expect(store.state.value.isPreparingQueue)
        player.open()
        await playing.value
        #expect(store.state.value.nowPlayingAlbum?.id == ids[0])
        #expect(store.state.value.nowPlayingTrack?.title == "T1")
        #expect(store.state.value.isPreparingQueue == false)
    }

    @Test func isPreparingQueueWhileTrackListsAreLookedUp() async throws {
        let (database, ids) = try F.library([[], F.spec(1)])
        let gate = AsyncGate()
        let provider = TrackListProvider { album in
            await gate.wait()
            return F.tracks(["Looked up"], albumID: album.id ?? 0)
        }
        let sim = simulator(database, trackLists: provider)
        let playing = Task { await sim.store.play(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0)) }
        await waitUntil { sim.store.state.value.isPreparingQueue }
        #expect(sim.store.state.value.isPreparingQueue)
        #expect(sim.log.lines.isEmpty) // nothing loaded into the player yet
        await gate.open()
        await playing.value
        #expect(sim.store.state.value.isPreparingQueue == false)
        #expect(sim.store.state.value.nowPlayingTrack?.title == "Looked up")
        // The lookup's result is kept, so the next play works offline.
        #expect(try database.tracks(forAlbum: ids[0]).map(\.title) == ["Looked up"])
    }

    /// An album without a track list later in the batch used to put "No track list for this
    /// album" under the next album while it played: a message belongs to the request.
    @Test func albumWithoutTrackListInMiddleOfBatchIsSkippedQuietly() async throws {
        let (database, ids) = try F.library([F.spec(1), F.spec(1), [], F.spec(1), F.spec(1)])
        let sim = simulator(database)
        await sim.run(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0))
        #expect(try F.playedAlbums(sim.log.lines) == [ids[0], ids[1], ids[3], ids[4]])
        #expect(sim.store.state.value.message == nil)
    }

    /// ▶ on an album with nothing to play used to say so and then start the next album of the
    /// grid, carrying on from there: the album asked for plays, or nothing starts.
    @Test func tappedAlbumWithoutTrackListSaysWhyAndPlaysNothingElse() async throws {
        let (database, ids) = try F.library([[], F.spec(1)])
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0))
        await sim.store.settle()
        #expect(sim.store.state.value.nowPlayingAlbum == nil)
        #expect(sim.store.state.value.isPreparingQueue == false)
        #expect(sim.store.state.value.message == "No track list for this album")
        #expect(sim.log.lines.isEmpty)
    }

    /// A request that cannot play leaves what was playing alone (and says why).
    @Test func aRefusedRequestLeavesThePlayingAlbumPlaying() async throws {
        let (database, ids) = try F.library([F.spec(3), []])
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0])
        await sim.store.play(albumID: ids[1])
        #expect(sim.store.state.value.nowPlayingAlbum?.id == ids[0])
        #expect(sim.store.state.value.status == .playing)
        #expect(sim.store.state.value.message == "No track list for this album")
    }

    /// ▶ on a track that is not in the album's list (a track without a file) used to play
    /// track 1: it says so and plays nothing.
    @Test func aTrackThatIsNotThereIsRefusedNotReplacedByTrackOne() async throws {
        let (database, ids) = try F.library([F.spec(3)])
        let sim = simulator(database)
        await sim.store.play(track: TrackSlot(disc: 1, position: 9), ofAlbum: ids[0])
        #expect(sim.store.state.value.nowPlayingAlbum == nil)
        #expect(sim.store.state.value.message == "This track is not in your music folder")
        #expect(sim.log.lines.isEmpty)
    }

    /// Tracks are chosen by disc and position, not by their place in a list: the second disc's
    /// first track plays, whatever the order the pane listed them in.
    @Test func aTrackIsChosenByDiscAndPosition() async throws {
        let spec: F.Spec = [(2, 1, "D2T1", 1_000), (1, 1, "D1T1", 1_000), (1, 2, "D1T2", 1_000)]
        let (database, ids) = try F.library([spec])
        let sim = simulator(database)
        await sim.store.play(track: TrackSlot(disc: 2, position: 1), ofAlbum: ids[0])
        #expect(sim.store.state.value.nowPlayingTrack?.title == "D2T1")
    }

    /// The last problem stayed under every album played after it; Stop ends it too.
    @Test func stopClearsTheLastProblem() async throws {
        let (database, ids) = try F.library([F.spec(2), []])
        let sim = simulator(database)
        await sim.store.play(albumID: ids[1])
        #expect(sim.store.state.value.message != nil)
        await sim.store.stop()
        #expect(sim.store.state.value.message == nil)
        await sim.store.play(albumID: ids[1])
        await sim.store.play(albumID: ids[0])
        #expect(sim.store.state.value.message == nil)
    }

    @Test func stopMidBatchPlaysNothingMore() async throws {
        let (database, ids) = try F.library(Array(repeating: F.spec(2), count: 5))
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0))
        sim.clock.advance(byMs: 4_500) // into album 3
        await sim.store.stop()
        let linesAtStop = sim.log.lines.count
        sim.clock.advance(byMs: 600_000)
        await sim.store.settle()
        #expect(sim.log.lines.count == linesAtStop)
        #expect(try F.playedAlbums(sim.log.lines) == Array(ids[0...2]))
        #expect(sim.store.state.value.nowPlayingAlbum == nil)
        #expect(sim.store.state.value.status == .stopped)
        await sim.store.togglePlay() // a stopped session stays stopped
        #expect(sim.player.state.value.status == .stopped)
    }

    @Test func previousAcrossAnAlbumBoundaryUpdatesNowPlaying() async throws {
        let (database, ids) = try F.library([F.spec(2), F.spec(2)])
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0], grid: GridContext(albumIDs: ids, tappedIndex: 0))
        sim.clock.advance(byMs: 2_000)
        #expect(sim.store.state.value.nowPlayingAlbum?.id == ids[1])
        await sim.store.previous()
        await sim.store.settle()
        #expect(sim.store.state.value.nowPlayingAlbum?.id == ids[0])
        #expect(sim.store.state.value.nowPlayingTrack?.title == "T2")
        // No false batch advance: the rest still plays in order.
        sim.clock.advance(byMs: 10_000)
        await sim.store.settle()
        #expect(try F.playedTracks(sim.log.lines).suffix(3) == ["\(ids[0]):1-2", "\(ids[1]):1-1", "\(ids[1]):1-2"])
    }

    /// docs/decisions/0003-grid-playback-in-batches.md, within-batch play path: tapping a track of an album already queued used to reset auto-advance.
    @Test func playingATrackWithinTheBatchKeepsAutoAdvance() async throws {
        let (database, ids) = try F.library(Array(repeating: F.spec(3), count: 7))
        let sim = simulator(database)
        let grid = GridContext(albumIDs: ids, tappedIndex: 0)
        await sim.store.play(albumID: ids[0], grid: grid)
        await sim.store.play(track: TrackSlot(disc: 1, position: 3), ofAlbum: ids[3], grid: grid)
        #expect(sim.store.state.value.nowPlayingTrack?.title == "T3")
        #expect(sim.store.manager?.batchAlbumIDs == Array(ids[0...4]))
        await sim.drive()
        // From album 4 track 3 on through the rest of the grid, batch 2 included.
        let played = try F.playedTracks(sim.log.lines)
        let tapped = try #require(played.lastIndex(of: "\(ids[3]):1-3"))
        let rest: [String] = ids[4...].flatMap { id -> [String] in (1...3).map { "\(id):1-\($0)" } }
        let expected: [String] = ["\(ids[3]):1-3"] + rest
        #expect(Array(played[tapped...]) == expected)
    }

    @Test func choosingATrackWithinTheBatchClearsTheLastProblem() async throws {
        let (database, ids) = try F.library([F.spec(3), F.spec(3)])
        let sim = simulator(database)
        let grid = GridContext(albumIDs: ids, tappedIndex: 0)
        await sim.store.play(albumID: ids[0], grid: grid)
        sim.store.state.update { $0.message = "Crate's player stopped (Killed) while playing 01.flac" }
        await sim.store.play(track: TrackSlot(disc: 1, position: 3), ofAlbum: ids[0], grid: grid)
        #expect(sim.store.state.value.nowPlayingTrack?.title == "T3")
        #expect(sim.store.state.value.message == nil)
    }

    @Test func multiDiscAlbumPlaysInDiscThenTrackOrder() async throws {
        let spec: F.Spec = [(2, 2, "D2T2", 1_000), (1, 2, "D1T2", 1_000), (2, 1, "D2T1", 1_000), (1, 1, "D1T1", 1_000)]
        let (database, ids) = try F.library([spec])
        let sim = simulator(database)
        await sim.run(albumID: ids[0], grid: nil)
        #expect(try F.playedTracks(sim.log.lines) == ["1-1", "1-2", "2-1", "2-2"].map { "\(ids[0]):\($0)" })
    }

    @Test func togglePlayPausesAndResumes() async throws {
        let (database, ids) = try F.library([F.spec(2)])
        let sim = simulator(database)
        await sim.store.play(albumID: ids[0])
        await sim.store.togglePlay()
        #expect(sim.store.state.value.status == .paused)
        await sim.store.togglePlay()
        #expect(sim.store.state.value.status == .playing)
    }

    @Test func unknownAlbumGivesAMessageAndPlaysNothing() async throws {
        let (database, _) = try F.library([F.spec(1)])
        let sim = simulator(database)
        await sim.store.play(albumID: 999)
        #expect(sim.store.state.value.message == "No album with id 999 in your crate.")
        #expect(sim.log.lines.isEmpty)
        #expect(sim.store.state.value.isPreparingQueue == false)
    }
}

/// A one-shot gate a test opens to let a suspended lookup continue.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
