import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Favourites, dislikes and the feedback outbox")
struct FeedbackOutboxTests {
    static func album(_ n: Int, release: Bool = true) throws -> RatedAlbum {
        RatedAlbum(releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x77, n)), title: "Album \(n)", artist: "Artist \(n)",
                   releaseID: release ? try MBID(ListenBrainzFixtures.mbid(0x78, n)) : nil)
    }

    @Test func aFavouriteAndADislikeAreMutuallyExclusive() throws {
        let db = try AppDatabase.inMemory()
        let a = try Self.album(1)
        #expect(try db.rate(a, .favourite, feedback: false))
        #expect(try db.read(AlbumRatingsRequest())[a.releaseGroupID] == .favourite)
        #expect(try db.rate(a, .dislike, feedback: false))
        #expect(try db.read(AlbumRatingsRequest()) == [a.releaseGroupID: .dislike])
        #expect(try db.read(FavouriteAlbumsRequest()).isEmpty)
        #expect(try !db.rate(a, .dislike, feedback: false))  // no change
        #expect(try db.rate(a, nil, feedback: false))
        #expect(try db.read(AlbumRatingsRequest()).isEmpty)
        #expect(try db.read(FeedbackStatusRequest()) == FeedbackStatus())  // no token: nothing queued
    }

    @Test func onlyTheLatestUnsentWordOnAnAlbumIsSent() throws {
        let db = try AppDatabase.inMemory()
        let a = try Self.album(1)
        try db.rate(a, .favourite, feedback: true)
        try db.rate(a, .dislike, feedback: true)
        try db.rate(a, nil, feedback: true)
        let status = try db.read(FeedbackStatusRequest())
        #expect(status.pending == 1 && status.superseded == 2)
        let item = try #require(try db.claimFeedback())
        #expect(item.score == 0 && item.releaseGroupID == a.releaseGroupID)
    }

    @Test func twoOwnersNeverClaimOneRowAndAnAlbumIsSentInOrder() throws {
        let db = try AppDatabase.inMemory()
        try db.rate(try Self.album(1), .favourite, feedback: true)
        try db.rate(try Self.album(2), .dislike, feedback: true)
        let me = BatchLeaseOwner(host: "here", processID: getpid(), startTime: BatchLeaseOwner().startTime, token: "a")
        let other = BatchLeaseOwner(host: "here", processID: getpid(), startTime: BatchLeaseOwner().startTime, token: "b")
        let first = try #require(try db.claimFeedback(owner: me))
        // While album 1's row is out, a newer word on album 1 waits behind it.
        try db.rate(try Self.album(1), nil, feedback: true)
        let second = try #require(try db.claimFeedback(owner: other))
        #expect(first.id != second.id && second.releaseGroupID.rawValue == ListenBrainzFixtures.mbid(0x77, 2))
        #expect(try db.claimFeedback(owner: other) == nil)
        try db.settleFeedback(id: first.id, sent: true, owner: me)
        let third = try #require(try db.claimFeedback(owner: other))
        #expect(third.score == 0 && third.releaseGroupID == first.releaseGroupID)
    }

    /// A pass tries each album once: a row it deferred that is due again before the pass ends
    /// (a slow pass on a busy machine) waits for the next pass.
    @Test func aRowAPassAlreadyTriedIsPassedOver() throws {
        let db = try AppDatabase.inMemory()
        try db.rate(try Self.album(1), .favourite, feedback: true)
        try db.rate(try Self.album(2), .dislike, feedback: true)
        let first = try #require(try db.claimFeedback())
        try db.settleFeedback(id: first.id, sent: false, error: "503", retryAt: Date().addingTimeInterval(-1))
        let second = try #require(try db.claimFeedback(excluding: [first.id]))
        #expect(second.id != first.id)
        #expect(try db.claimFeedback(excluding: [first.id, second.id]) == nil)
        #expect(try db.claimFeedback()?.id == first.id, "due again for the next pass")
    }

    @Test func theSenderSendsEveryRecordingOnceAndRetriesAfterAFailure() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let accepted = AcceptedFeedback()
        let failNext = Flag(true)
        world.server.route("/1/feedback/recording-feedback", method: "POST") { request in
            if failNext.take() { return .json(ListenBrainzFixtures.serviceUnavailable, status: 503) }
            accepted.add(request.body)
            return .json(#"{"status":"ok"}"#)
        }
        try world.database.rate(try Self.album(1), .favourite, feedback: true)
        try world.database.rate(try Self.album(2, release: false), .dislike, feedback: true)
        let sender = FeedbackSender(database: world.database, listenBrainz: world.listenBrainz(), musicBrainz: world.musicBrainz())

        let firstPass = await sender.run()
        // The first POST met two 503s (one automatic retry): album 1 waits for its retry time;
        // album 2 went through.
        #expect(firstPass.deferred + firstPass.sent == 2, "\(firstPass)")
        #expect(try world.database.read(FeedbackStatusRequest()).pending == firstPass.deferred)

        // Due now: the retry sends only what was not accepted.
        try world.database.makeFeedbackDue()
        _ = await sender.run()
        let status = try world.database.read(FeedbackStatusRequest())
        #expect(status.pending == 0 && status.sent == 2)
        let counts = accepted.counts
        #expect(counts.count == 6)  // three recordings per album
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
        #expect(Set(accepted.scores) == [1, -1])
        // Album 1 was looked up by release, album 2 by release group: one MusicBrainz request each.
        #expect(world.server.requests.filter { $0.path.hasPrefix("/ws/2/release") }.count == 2)
    }

    @Test func aTakenOverRowSendsOnlyWhatIsLeft() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        let accepted = AcceptedFeedback()
        world.server.route("/1/feedback/recording-feedback", method: "POST") { request in
            accepted.add(request.body)
            return .json(#"{"status":"ok"}"#)
        }
        let db = world.database
        try db.rate(try Self.album(3), .favourite, feedback: true)
        // A process that found the recordings and sent one, then died (its lease names a pid
        // that is gone).
        let dead = BatchLeaseOwner(host: BatchLeaseOwner().host, processID: 999_999, startTime: 1)
        let item = try #require(try db.claimFeedback(owner: dead))
        let recordings = try (1...3).map { try MBID(ListenBrainzFixtures.mbid(0xe4, $0 + (0x78 * 10_000 + 3) * 100)) }
        #expect(try db.recordFeedbackProgress(id: item.id, recordings: recordings, sent: [recordings[0]], owner: dead))

        _ = await FeedbackSender(database: db, listenBrainz: world.listenBrainz(), musicBrainz: world.musicBrainz()).run()

        #expect(Set(accepted.counts.keys) == Set(recordings[1...].map(\.rawValue)))
        #expect(try db.read(FeedbackStatusRequest()).sent == 1)
        #expect(world.server.requests.filter { $0.path.hasPrefix("/ws/2") }.isEmpty)  // recordings were known
    }

    @Test func withoutATokenNothingIsClaimed() async throws {
        let world = try WallTestWorld()
        defer { world.server.stop() }
        try world.database.rate(try Self.album(1), .favourite, feedback: true)
        let summary = await FeedbackSender(database: world.database, listenBrainz: world.listenBrainz(token: nil), musicBrainz: nil).run()
        #expect(summary == FeedbackRunSummary())
        #expect(try world.database.read(FeedbackStatusRequest()).pending == 1)
    }

    /// Wall tiles of albums already in the crate stayed grey although their covers were in the
    /// cache: the crate's thumbnail is used, with no download (offline too).
    @Test func aWallTileOfACrateAlbumUsesItsCachedCover() async throws {
        let temp = try TemporaryDirectory()
        let db = try AppDatabase.inMemory()
        let group = try MBID(ListenBrainzFixtures.mbid(0x91, 1))
        let other = try MBID(ListenBrainzFixtures.mbid(0x91, 2))
        let entry = try db.saveScan(of: Album(musicBrainzReleaseGroupID: group.rawValue, title: "In the crate", artist: "A"), method: .vision)
        try Data([0xFF, 0xD8, 0xFF]).write(to: temp.url.appendingPathComponent("thumb-1.jpg"))
        try db.setArtwork(albumID: entry.album.id!, status: .available, artworkPath: "art-1.jpg", thumbnailPath: "thumb-1.jpg")
        try db.saveWall(dial: .mixed, items: [
            WallItem(signal: .listeningHistory, releaseGroupID: group, title: "In the crate", artist: "A"),
            WallItem(signal: .popularCharts, releaseGroupID: other, title: "Not in it", artist: "B", artURL: URL(string: "http://127.0.0.1:9/caa/2-250.jpg")),
        ], unavailable: [])
        let offline = ScriptedHTTPClient()  // every request fails: no network
        await WallArtwork(database: db, directory: temp.url, http: offline).fetchMissing()
        let tiles = try #require(try db.read(StoredWallRequest())).tiles
        #expect(tiles[0].artworkStatus == .available && tiles[0].artworkPath == "thumb-1.jpg")
        #expect(tiles[1].artworkStatus == .failed)
        #expect(offline.requests.map(\.url.absoluteString) == ["http://127.0.0.1:9/caa/2-250.jpg"], "nothing fetched for the crate album")
    }

    @Test func theWallIsStoredAndReadBackWithItsDial() throws {
        let db = try AppDatabase.inMemory()
        let items = try (0..<60).map { n in
            WallItem(signal: WallSignal.allCases[n % 5], releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x90, n)), title: "T\(n)", artist: "A\(n)",
                     artURL: URL(string: "http://127.0.0.1/caa/\(n)-250.jpg"))
        }
        try db.saveWall(dial: .deepDig, items: items, unavailable: [WallUnavailable(signal: .recommendations, reason: "It had no albums to show.")])
        try db.setWallArtwork(releaseGroupID: items[3].releaseGroupID, status: .available, path: "wall-x-250.jpg")
        let stored = try #require(try db.read(StoredWallRequest()))
        #expect(stored.dial == .deepDig && stored.tiles.map(\.item) == items)
        #expect(stored.unavailable.map(\.signal) == [.recommendations])
        #expect(stored.tiles[3].artworkPath == "wall-x-250.jpg")
        // "More" appends after what is shown; a new wall replaces it but keeps cached art.
        try db.saveWall(dial: .deepDig, items: Array(items[3...4]), unavailable: [], append: true)
        #expect(try db.read(StoredWallRequest())?.tiles.count == 62)
        try db.saveWall(dial: .mystery, items: Array(items[0...5]), unavailable: [])
        let replaced = try #require(try db.read(StoredWallRequest()))
        #expect(replaced.tiles.count == 6 && replaced.dial == .mystery && replaced.tiles[3].artworkStatus == .available)
    }
}

final class AcceptedFeedback: Sendable {
    private let state = Mutex<[(String, Int)]>([])

    func add(_ body: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let recording = object["recording_mbid"] as? String, let score = object["score"] as? Int else { return }
        state.withLock { $0.append((recording, score)) }
    }

    var counts: [String: Int] { state.withLock { $0.reduce(into: [:]) { $0[$1.0, default: 0] += 1 } } }
    /// The distinct scores in the order first seen.
    var scores: [Int] { state.withLock { $0.map(\.1).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } } } }
}

final class Flag: Sendable {
    private let state: Mutex<Int>
    /// `true` fails the next two calls (a request and its automatic retry).
    init(_ on: Bool) { state = Mutex(on ? 2 : 0) }
    func take() -> Bool { state.withLock { v in defer { v = max(0, v - 1) }; return v > 0 } }
}
