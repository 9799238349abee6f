import Testing
@testable import CrateCore

@Suite("AlbumQueueManager")
struct AlbumQueueManagerTests {
    typealias F = PlaybackFixtures

    /// A manager for a 12-album grid whose current batch is filled with two tracks per album.
    private func filled(tapped: Int, gridCount: Int = 12, count: Int = 2) -> AlbumQueueManager {
        var manager = AlbumQueueManager(grid: F.grid(gridCount, tapped: tapped))
        manager.fill(trackLists: F.trackLists(manager.batchAlbumIDs, count: count))
        return manager
    }

    // MARK: - Batch composition

    @Test func batchAtStartOfGridIsTappedPlusNextFour() {
        let manager = AlbumQueueManager(grid: F.grid(12, tapped: 0))
        #expect(manager.batchAlbumIDs == [1, 2, 3, 4, 5])
        #expect(manager.nextBatchAlbumIDs == [6, 7, 8, 9, 10])
    }

    @Test func batchInMiddleOfGridStartsAtTappedAlbum() {
        let manager = AlbumQueueManager(grid: F.grid(12, tapped: 6))
        #expect(manager.batchAlbumIDs == [7, 8, 9, 10, 11])
        #expect(manager.nextBatchAlbumIDs == [12])
    }

    @Test func batchAtEndOfGridIsShortAndNothingFollows() {
        let manager = AlbumQueueManager(grid: F.grid(12, tapped: 10))
        #expect(manager.batchAlbumIDs == [11, 12])
        #expect(manager.nextBatchRange == nil)
        #expect(manager.nextBatchAlbumIDs.isEmpty)
    }

    @Test func batchesWalkToTheEndOfTheGridAndNeverWrap() {
        var manager = AlbumQueueManager(grid: F.grid(12, tapped: 3))
        var batches = [manager.batchAlbumIDs]
        while manager.advanceToNextBatch() { batches.append(manager.batchAlbumIDs) }
        #expect(batches == [[4, 5, 6, 7, 8], [9, 10, 11, 12]])
    }

    @Test func albumPlayedWithoutGridIsABatchOfOne() {
        var manager = AlbumQueueManager(grid: .single(42))
        #expect(manager.batchAlbumIDs == [42])
        #expect(manager.advanceToNextBatch() == false)
    }

    @Test func gridContextRejectsTappedIndexOutsideGrid() {
        #expect(GridContext(albumIDs: [1, 2], tappedIndex: 2) == nil)
        #expect(GridContext(albumIDs: [], tappedIndex: 0) == nil)
        #expect(GridContext(albumIDs: [1, 2], tapped: 3) == nil)
        #expect(GridContext(albumIDs: [5, 6, 7], tapped: 6)?.tappedIndex == 1)
    }

    // MARK: - Queue contents

    @Test func queueIsAlbumsInGridOrderEachInDiscThenTrackOrder() {
        var manager = AlbumQueueManager(grid: GridContext(albumIDs: [7, 8], tappedIndex: 0)!)
        // Deliberately scrambled input: the manager must restore canonical order.
        let album7 = [
            Track(albumID: 7, disc: 2, position: 1, title: "D2T1"),
            Track(albumID: 7, disc: 1, position: 2, title: "D1T2"),
            Track(albumID: 7, disc: 2, position: 2, title: "D2T2"),
            Track(albumID: 7, disc: 1, position: 1, title: "D1T1"),
        ]
        manager.fill(trackLists: [8: F.tracks(["B1"], albumID: 8), 7: album7])
        #expect(manager.entries.map(\.track.title) == ["D1T1", "D1T2", "D2T1", "D2T2", "B1"])
        #expect(manager.entries.map(\.albumID) == [7, 7, 7, 7, 8])
    }

    @Test func albumWithoutTrackListInMiddleOfBatchIsSkipped() {
        var manager = AlbumQueueManager(grid: F.grid(12, tapped: 0))
        var lists = F.trackLists(manager.batchAlbumIDs)
        lists[3] = nil
        lists[4] = [] // an empty list counts as none
        manager.fill(trackLists: lists)
        #expect(manager.skippedAlbumIDs == [3, 4])
        #expect(Set(manager.entries.map(\.albumID)) == [1, 2, 5])
        // The batch itself is unchanged: the next batch still starts after album 5.
        #expect(manager.nextBatchAlbumIDs == [6, 7, 8, 9, 10])
    }

    @Test func entryIndexFindsAnAlbumsTrackOnlyWithinThatAlbum() {
        let manager = filled(tapped: 0)
        #expect(manager.entryIndex(ofAlbum: 2) == 2)
        #expect(manager.entryIndex(ofAlbum: 2, track: 1) == 3)
        #expect(manager.entryIndex(ofAlbum: 2, track: 2) == nil) // would spill into album 3
        #expect(manager.entryIndex(ofAlbum: 99) == nil)
    }

    // MARK: - Pre-fetch

    @Test func prefetchIsRequestedOnceWhenLastAlbumOfBatchStarts() {
        var manager = filled(tapped: 0)
        var requests: [Int] = []
        for index in manager.entries.indices {
            let change = index == 0 ? manager.start(at: 0) : manager.trackDidChange(to: manager.entries[index])
            if change.shouldPrefetchNextBatch { requests.append(index) }
        }
        // Album 5 (the batch's last) starts at entry 8; its second track must not ask again.
        #expect(requests == [8])
    }

    @Test func noPrefetchInTheGridsLastBatch() {
        var manager = filled(tapped: 10)
        let change = manager.trackDidChange(to: manager.entries[2]) // album 12, the grid's last
        #expect(change.found)
        #expect(change.shouldPrefetchNextBatch == false)
    }

    @Test func prefetchTriggersOnLastPlayableAlbumWhenBatchEndsWithASkippedAlbum() {
        var manager = AlbumQueueManager(grid: F.grid(12, tapped: 0))
        var lists = F.trackLists(manager.batchAlbumIDs)
        lists[5] = nil
        manager.fill(trackLists: lists)
        manager.start(at: 0)
        let change = manager.trackDidChange(to: manager.entries[6]) // album 4
        #expect(change.albumID == 4)
        #expect(change.shouldPrefetchNextBatch)
    }

    // MARK: - Track mapping

    @Test func previousAcrossAlbumBoundaryIsFoundOneStepBack() {
        var manager = filled(tapped: 0)
        manager.start(at: 2) // album 2, track 1
        let change = manager.trackDidChange(to: manager.entries[1], checkBackward: true)
        #expect(change.found)
        #expect(change.albumID == 1)
        #expect(change.albumChanged)
        #expect(manager.cursor == 1)
    }

    @Test func withoutBackwardCheckAPreviousIsNotFound() {
        var manager = filled(tapped: 0)
        manager.start(at: 2)
        #expect(manager.trackDidChange(to: manager.entries[1]).found == false)
    }

    @Test func wrapFromLastEntryToFirstIsNotMistakenForPrevious() {
        var manager = filled(tapped: 0)
        manager.start(at: manager.entries.count - 1)
        let change = manager.trackDidChange(to: manager.entries[0], checkBackward: true)
        #expect(change == .wrapped)
        #expect(manager.cursor == manager.entries.count - 1) // the cursor stays put
    }

    @Test func skipForwardSeveralTracksIsFound() {
        var manager = filled(tapped: 0)
        manager.start(at: 0)
        let change = manager.trackDidChange(to: manager.entries[7], checkBackward: true)
        #expect(change.found && change.entryIndex == 7 && change.albumID == 4)
    }

    /// Two albums both open with "Intro": the mapping must follow identity, not the title.
    @Test func duplicateTrackTitlesAcrossAlbumsMapToTheRightAlbum() {
        var manager = AlbumQueueManager(grid: GridContext(albumIDs: [1, 2], tappedIndex: 0)!)
        manager.fill(trackLists: [
            1: F.tracks(["Intro", "Outro"], albumID: 1),
            2: F.tracks(["Intro", "Outro"], albumID: 2),
        ])
        manager.start(at: 1) // album 1, "Outro"
        let change = manager.trackDidChange(to: manager.entries[2], checkBackward: true) // album 2, "Intro"
        #expect(change.albumID == 2)
        #expect(change.entryIndex == 2)
        #expect(change.albumChanged)
    }

    @Test func sameAlbumTwiceInGridIsTwoDistinctSlots() {
        var manager = AlbumQueueManager(grid: GridContext(albumIDs: [1, 1], tappedIndex: 0)!)
        manager.fill(trackLists: [1: F.tracks(["Intro"], albumID: 1)])
        #expect(manager.entries.count == 2)
        manager.start(at: 0)
        let change = manager.trackDidChange(to: manager.entries[1])
        #expect(change.entryIndex == 1 && change.albumChanged)
    }

    // MARK: - Seek and stop

    @Test func seekWithinBatchKeepsBatchAutoAdvanceAndPrefetch() {
        var manager = filled(tapped: 0)
        manager.start(at: 0)
        let batch = manager.batchRange
        let change = manager.seekToTrack(at: 5) // album 3, track 2
        #expect(change?.albumID == 3)
        #expect(manager.batchRange == batch)
        #expect(manager.isAutoAdvancing)
        #expect(manager.nextBatchAlbumIDs == [6, 7, 8, 9, 10])
        // Playing on from the new position still reaches the batch's end and asks for more.
        #expect(manager.trackDidChange(to: manager.entries[8]).shouldPrefetchNextBatch)
    }

    @Test func seekBackwardWithinBatchThenAdvanceIsStillFound() {
        var manager = filled(tapped: 0)
        manager.start(at: 8)
        _ = manager.seekToTrack(at: 1)
        let change = manager.trackDidChange(to: manager.entries[2], checkBackward: true)
        #expect(change.found && change.albumID == 2)
    }

    @Test func seekOutsideBatchIsRefusedAndChangesNothing() {
        var manager = filled(tapped: 0)
        manager.start(at: 3)
        #expect(manager.seekToTrack(at: 10) == nil)
        #expect(manager.seekToTrack(at: -1) == nil)
        #expect(manager.cursor == 3)
    }

    @Test func stopEndsAutoAdvance() {
        var manager = filled(tapped: 0)
        manager.start(at: 3)
        manager.stop()
        #expect(manager.cursor == nil)
        #expect(manager.nextBatchRange == nil)
        #expect(manager.advanceToNextBatch() == false)
    }
}
