import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Scan pipeline")
struct ScanPipelineTests {
    @Test func identifiesSavesAndFetchesArtworkAndTracks() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let log = EventLog()
        let result = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg"), events: log.append)

        #expect(result.entry.album.musicBrainzReleaseID == MusicBrainzFixtures.rumoursReleaseID)
        #expect(result.entry.scan.method == .vision)
        #expect(result.entry.album.artworkStatus == .available)
        // Stored relative to the artwork cache, resolved against it.
        #expect(result.entry.album.artworkPath?.hasPrefix("/") == false)
        let artwork = try #require(result.entry.album.artworkURL(in: h.directory.paths.artworkDirectory))
        let thumbnail = try #require(result.entry.album.thumbnailURL(in: h.directory.paths.artworkDirectory))
        #expect(try ImagePreparer().decodeUpright(Data(contentsOf: thumbnail)).width == 200)
        #expect(FileManager.default.fileExists(atPath: artwork.path))
        let albumID = try #require(result.entry.album.id)
        #expect(try !h.database.tracks(forAlbum: albumID).isEmpty)
        #expect(try h.database.coverHash(forAlbum: albumID) != nil)
        #expect(log.events.first == .identified(result.entry.album) || {
            if case .identified = log.events.first { return true } else { return false }
        }())
    }

    @Test func anIdentifiedAlbumGetsItsDiscogsLink() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        h.server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch, headers: DiscogsFixtures.rateLimitHeaders(remaining: 59))])
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours, discogs: "disc-token")
        let result = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        await pipeline.discogsLinksSettled()
        let albumID = try #require(result.entry.album.id)
        guard case .linked(let link) = try h.database.discogsState(forAlbum: albumID) else {
            Issue.record("no Discogs link stored")
            return
        }
        #expect(link.releaseID == 1873013 && link.score > 0.9)
    }

    @Test func repairLinksAlbumsNeverAskedAboutOnDiscogs() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let result = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        let albumID = try #require(result.entry.album.id)
        #expect(try h.database.discogsState(forAlbum: albumID) == nil)  // Scanned before a token was set.
        h.server.route("/database/search", responses: [.json(DiscogsFixtures.rumoursSearch)])
        _ = await h.pipeline(identifier: nil, discogs: "disc-token").repairPendingDetails()
        guard case .linked(let link) = try h.database.discogsState(forAlbum: albumID) else {
            Issue.record("repair did not link the album")
            return
        }
        #expect(link.releaseID == 1873013)
    }

    /// Discogs holds its answer (pacing, a 429 or a slow server can keep a request open for up to
    /// a minute): the scan is saved and returned while the request is still open, and the link
    /// arrives afterwards.
    @Test func aScanNeverWaitsForDiscogs() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let arrived = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        h.server.route("/database/search") { _ in
            arrived.signal()
            _ = release.wait(timeout: .now() + 300)
            return .json(DiscogsFixtures.rumoursSearch, headers: DiscogsFixtures.rateLimitHeaders(remaining: 59))
        }
        defer { release.signal() }
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours, discogs: "disc-token")
        let result = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        #expect(result.entry.album.title == "Rumours")
        #expect(result.entry.album.artworkStatus == .available)
        let albumID = try #require(result.entry.album.id)

        // The Discogs request reaches the server (the look-up runs on its own; the ceiling only
        // catches a hang) and is still unanswered: the scan above finished while it was open.
        let reached = try await BlockingWork.run { arrived.wait(timeout: .now() + 240) == .success }
        #expect(reached)
        #expect(try h.database.discogsState(forAlbum: albumID) == nil)

        release.signal()
        await pipeline.discogsLinksSettled()
        let state = try h.database.discogsState(forAlbum: albumID)
        guard case .linked(let link) = state else {
            Issue.record("the link did not arrive after the scan: \(String(describing: state))")
            return
        }
        #expect(link.releaseID == 1873013)
    }

    @Test func discogsRefusingIsNotAScanFailure() async throws {
        for response in [FixtureResponse.json(DiscogsFixtures.unauthorized, status: 401),
                         .json(DiscogsFixtures.tooManyRequests, status: 429,
                               headers: [("Retry-After", "900")] + DiscogsFixtures.rateLimitHeaders(remaining: 0))] {
            let h = try PipelineHarness()
            h.serveRumours()
            h.server.route("/database/search", responses: [response, response, response, response])
            let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours, discogs: "disc-token")
            let result = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
            await pipeline.discogsLinksSettled()
            #expect(result.entry.album.title == "Rumours")
            #expect(result.entry.album.artworkStatus == .available)
            let albumID = try #require(result.entry.album.id)
            guard case .retry = try h.database.discogsState(forAlbum: albumID) else {
                Issue.record("expected a retry later")
                return
            }
        }
    }

    @Test func aRepeatScanIsAnsweredOfflineByTierZero() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let first = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        let offline = ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
        let again = try await offline.scan(file: ImageFixtures.url("photos/cover-00-photo-1.jpg")) { _ in }
        #expect(again.entry.scan.method == .localMatch)
        #expect(again.entry.album.id == first.entry.album.id)
        #expect(try h.database.counts().scans == 2, "every scan is saved, duplicates too")
    }

    @Test func theCameraSeesACoverTheCrateKnowsWithItsVerdictAndSavesNothing() async throws {
        // Given: a crate that scanned and owns Rumours
        let h = try PipelineHarness()
        h.serveRumours()
        let first = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        let albumID = try #require(first.entry.album.id)
        _ = try h.database.own(albumID: albumID)
        let offline = ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
        // When: a preview frame shows its cover, then one shows a cover it does not know
        let known = try ImagePreparer().decodeUpright(Data(contentsOf: ImageFixtures.url("photos/cover-00-photo-1.jpg")))
        let unknown = try ImagePreparer().decodeUpright(Data(contentsOf: ImageFixtures.url("negatives/unknown-00.jpg")))
        let sighting = try await offline.sighting(in: known)
        let nothing = try await offline.sighting(in: unknown)
        // Then: the first is Rumours, owned; the second nothing; no scan was saved
        #expect(sighting?.album.id == albumID)
        #expect(sighting?.verdict.kind == .owned)
        #expect(nothing == nil)
        #expect(try h.database.counts().scans == 1)
    }

    @Test func offlineWithNoMatchIsNotIdentified() async throws {
        let h = try PipelineHarness()
        let offline = ScanPipeline(database: h.database, paths: h.directory.paths, services: .offline)
        await #expect(throws: ScanFailure.notIdentified) {
            try await offline.scan(file: ImageFixtures.url("negatives/unknown-00.jpg")) { _ in }
        }
        #expect(try h.database.counts().scans == 0)
    }

    @Test(arguments: ["not-an-image.jpg", "zero-bytes.jpg", "truncated.jpg", "bomb-65000x65000.jpg", "cover.png"])
    func badFilesNameTheProblem(_ name: String) async throws {
        let h = try PipelineHarness()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        do {
            _ = try await pipeline.scan(file: ImageFixtures.url("bad-images/\(name)")) { _ in }
            Issue.record("\(name) was accepted")
        } catch let failure as ScanFailure {
            guard case .badImage(let message) = failure else { Issue.record("got \(failure)"); return }
            #expect(!message.isEmpty)
        }
        #expect(h.server.requests.isEmpty, "nothing reaches the network for a bad file")
    }

    @Test func musicBrainzDownStillSavesTheAlbum() async throws {
        let h = try PipelineHarness()
        h.server.route("/ws/2/*", responses: [.json(#"{"error":"down"}"#, status: 500)])
        let result = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        #expect(result.entry.album.title == "Rumours")
        #expect(result.entry.album.musicBrainzReleaseID == nil)
        #expect(result.entry.album.artworkStatus == .pending)  // a search that did not happen is pending, not unavailable
        #expect(try h.database.counts().scans == 1)
    }

    @Test func missingArtworkIsUnavailableAndTracksStillArrive() async throws {
        let h = try PipelineHarness()
        let id = MusicBrainzFixtures.rumoursReleaseID
        h.server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])
        h.server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        h.server.route("/caa/*", responses: [.text("Not Found", status: 404)])
        let result = try await h.pipeline(identifier: ScriptedIdentifier.rumours).scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        #expect(result.entry.album.artworkStatus == .unavailable)
        #expect(try !h.database.tracks(forAlbum: result.entry.album.id!).isEmpty)
    }

    @Test func aRejectedKeyIsReportedAsAKeyProblem() async throws {
        let h = try PipelineHarness()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier(answer: nil, error: WrongKey()))
        await #expect(throws: ScanFailure.providerKey(WrongKey().keyProblemMessage)) {
            try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        }
    }

    @Test func anUnreadableCoverIsNotIdentified() async throws {
        let h = try PipelineHarness()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier(answer: nil))
        await #expect(throws: ScanFailure.notIdentified) {
            try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        }
    }

    @Test func choosingARunnerUpReplacesTheScan() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let pipeline = h.pipeline(identifier: ScriptedIdentifier.rumours)
        let first = try await pipeline.scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }
        let saved = try h.database.candidates(forScan: first.entry.id)
        #expect(!saved.isEmpty)
        #expect(saved.map(\.album.musicBrainzReleaseID) == first.candidates.map(\.musicBrainzReleaseID), "runners-up are saved with the scan")
        #expect(saved.map(\.score) == first.rankedCandidates.map(\.score))
        let other = Album(title: "Tusk", artist: "Fleetwood Mac", year: "1979")
        let chosen = try await pipeline.choose(other, replacing: first.entry.id)
        #expect(chosen.entry.album.title == "Tusk")
        #expect(chosen.entry.scan.method == .manual)
        let history = try h.database.read(HistoryPageRequest())
        #expect(history.map(\.album.title) == ["Tusk"], "the wrong scan is gone, the chosen one saved")
        #expect(try h.database.read(AllAlbumsRequest(sortedBy: .artist)).map(\.album.title) == ["Tusk"], "the wrong album left the crate")
    }
}

@Suite("Artwork repair")
struct ArtworkRepairTests {
    /// A kill after the scan was saved but before its artwork arrived left the album "pending"
    /// forever; the repair pass fetches it.
    @Test func pendingArtworkIsFetchedByTheRepairPass() async throws {
        let h = try PipelineHarness()
        h.serveRumours()
        let album = try h.database.saveScan(of: Album(musicBrainzReleaseID: MusicBrainzFixtures.rumoursReleaseID, title: "Rumours", artist: "Fleetwood Mac"), method: .vision).album
        #expect(album.artworkStatus == .pending)
        let repaired = await h.pipeline(identifier: nil).repairPendingDetails().tried
        #expect(repaired == 1)
        let after = try #require(try h.database.album(id: album.id!))
        #expect(after.artworkStatus == .available)
        #expect(try !h.database.tracks(forAlbum: album.id!).isEmpty)
        #expect(await h.pipeline(identifier: nil).repairPendingDetails().tried == 0, "nothing left to repair")
    }
}
