import CrateCore
import Foundation
import Testing

/// docs/reliability.md #20, #21: pending track lists and artwork are claimed by one process at a
/// time; a dead or expired claim is taken over; failures are counted and given up on.
@Suite("Pending details claims")
struct PendingDetailsClaimTests {
    static let release = "7ec069c0-4424-3169-8ed0-d5e2473e0e84"

    @Test func aScanRecordsTheTrackListAsPendingInTheSameSave() throws {
        let database = try AppDatabase.inMemory()
        let saved = try database.saveScan(of: Album(musicBrainzReleaseID: Self.release, title: "Rumours", artist: "Fleetwood Mac"), method: .vision)
        #expect(saved.album.tracksStatus == .pending)
        #expect(try database.album(id: saved.album.id!)?.tracksStatus == .pending)
        let noRelease = try database.saveScan(of: Album(title: "Demo", artist: "Band"), method: .vision)
        #expect(noRelease.album.tracksStatus == .unavailable, "nothing to look up")
    }

    @Test func aLiveClaimKeepsOthersAwayAndADeadOneIsTakenOver() throws {
        let database = try AppDatabase.inMemory()
        let id = try database.saveScan(of: Album(musicBrainzReleaseID: Self.release, title: "Rumours", artist: "Fleetwood Mac"), method: .vision).album.id!
        // This test process is alive: its claim holds.
        #expect(try database.claimDetails(albumID: id, by: .current))
        #expect(try database.claimNextPendingDetails(by: DetailsClaim(owner: 2_000_000_000)) == nil)
        #expect(try database.claimDetails(albumID: id, by: DetailsClaim(owner: 2_000_000_000)) == false)
        // An expired claim is taken over, even from a live process.
        let later = Date().addingTimeInterval(DetailsClaim.lease + 1)
        #expect(try database.claimNextPendingDetails(by: DetailsClaim(owner: 2_000_000_000), at: later)?.album.id == id)
        // Owner 2 000 000 000 does not exist (pid_max is at most 2^22): its claim counts for nothing.
        #expect(!DetailsClaim.processIsAlive(2_000_000_000))
        let work = try #require(try database.claimNextPendingDetails(by: .current))
        #expect(work.needsTracks && work.needsArtwork)
        try database.releaseDetailsClaim(albumID: id, by: .current)
        #expect(try database.claimNextPendingDetails(skipping: [id], by: .current) == nil)
    }

    @Test func failedLookupsAreGivenUpOnAndARescanTriesAgain() throws {
        let database = try AppDatabase.inMemory()
        let album = Album(musicBrainzReleaseID: Self.release, title: "Rumours", artist: "Fleetwood Mac")
        let id = try database.saveScan(of: album, method: .vision).album.id!
        for attempt in 1...DetailsClaim.maxAttempts {
            let status = try database.recordTrackListFailure(albumID: id, message: "MusicBrainz is busy")
            #expect(status == (attempt < DetailsClaim.maxAttempts ? .pending : .failed))
        }
        #expect(try database.detailsCounts().tracksFailed == 1)
        let rescan = try database.saveScan(of: album, method: .localMatch)
        #expect(rescan.album.tracksStatus == .pending, "a re-scan asks for the track list again")
        #expect(try database.recordTrackListFailure(albumID: id, message: "still busy") == .pending, "with its tries back")
    }
}
