import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// Owned records kept in a MusicBrainz collection: Digest sign-in, the three-way merge, batches,
/// errors, and two libraries converging through one service.
@Suite("MusicBrainz collection sync")
struct MusicBrainzCollectionSyncTests {
    static let collectionID = "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9"

    struct World {
        let server: FixtureServer
        let service: MusicBrainzCollectionService
        let client: MusicBrainzClient
        let account: HTTPCredentials

        init() throws {
            server = try FixtureServer()
            service = MusicBrainzCollectionService(server: server)
            client = MusicBrainzCollectionSyncTests.client(server)
            account = HTTPCredentials(user: service.user, password: service.password)
        }

        func library() throws -> (AppDatabase, TemporaryDirectory) {
            let dir = try TemporaryDirectory()
            return (try AppDatabase.open(paths: dir.paths), dir)
        }

        func sync(_ database: AppDatabase, account: HTTPCredentials? = nil) throws -> MusicBrainzCollectionSync {
            try MusicBrainzCollectionSync(client: client, database: database, account: account ?? self.account, collection: MusicBrainzCollectionSyncTests.collectionID)
        }
    }

    static func client(_ server: FixtureServer) -> MusicBrainzClient {
        let clock = TestClock()
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        return MusicBrainzClient(http: http, baseURL: MusicBrainzCollectionService.endpoint(server), contact: "mailto:test@example.org")
    }

    /// Owns the fixture release `number` in `database`, as a scan and "I own this" would.
    @discardableResult
    static func own(_ number: Int, in database: AppDatabase) throws -> Int64 {
        let release = MusicBrainzCollectionService.release(number)
        var album = Album(title: release.title, artist: release.artist)
        album.musicBrainzReleaseID = release.id
        album.musicBrainzReleaseGroupID = release.groupID
        let id = try database.addToCrate(album)
        try database.own(albumID: id)
        return id
    }

    // MARK: - The merge

    @Test func theMergeTellsNewHereNewThereAndRemovals() {
        let plan = CollectionSyncPlan.make(local: ["a", "b", "e"], remote: ["b", "c", "d", "f"], base: ["d", "e", "f", "g"], confirmed: ["f"])
        #expect(plan.push == ["a"])
        #expect(plan.pull == ["c"])
        #expect(plan.newlyInSync == ["b"])
        #expect(plan.awaitingConfirmation == ["d"])
        #expect(plan.removeRemote == ["f"])
        #expect(plan.removedElsewhere == ["e"])
        #expect(plan.forgotten == ["g"])
        #expect(plan.inSync == 1)
    }

    // MARK: - Against the service

    @Test func digestSignInListsCollectionsAndAWrongPasswordIsRefused() async throws {
        let world = try World()
        world.service.addCollection(id: Self.collectionID, name: "My vinyl", releases: [MusicBrainzCollectionService.release(1)])
        let collections = try await world.client.collections(as: world.account)
        #expect(collections == [MusicBrainzCollection(id: Self.collectionID, name: "My vinyl", releaseCount: 1)])
        // Each request was challenged once, then answered with the Digest response.
        let requests = world.server.requests(path: "/ws/2/collection")
        #expect(requests.count == 2)
        #expect(requests.first?.headers["authorization"] == nil)
        #expect(requests.last?.headers["authorization"]?.hasPrefix("Digest username=\"digger\"") == true)
        let answer = requests.last?.headers["authorization"] ?? ""
        #expect(answer.contains(world.service.password) == false, "the password itself is never sent")

        await #expect(throws: MusicBrainzCollectionError.signInRefused) {
            _ = try await world.client.collections(as: HTTPCredentials(user: "digger", password: "wrong"))
        }
    }

    @Test func anUnknownCollectionAndABadIDSayWhich() async throws {
        let world = try World()
        let (database, _dir) = try world.library()
        _ = _dir
        await #expect(throws: MusicBrainzCollectionError.collectionNotFound(Self.collectionID)) {
            _ = try await world.sync(database).run()
        }
        #expect(throws: MusicBrainzCollectionError.collectionNotFound("../etc")) {
            _ = try MusicBrainzCollectionSync(client: world.client, database: database, account: world.account, collection: "../etc")
        }
    }

    @Test func aFirstSyncPushesOwnedRecordsAndOwnsTheCollectionsOwn() async throws {
        let world = try World()
        let there = (1...3).map { MusicBrainzCollectionService.release($0) }
        let here = (10...14).map { MusicBrainzCollectionService.release($0) }
        world.service.addCollection(id: Self.collectionID, name: "My vinyl", releases: there)
        world.service.know(here)
        let (database, _dir) = try world.library()
        _ = _dir
        for number in 10...14 { try Self.own(number, in: database) }
        try Self.own(2, in: database)

        let summary = try await world.sync(database).run()
        #expect(summary.added == 5)
        #expect(summary.owned == 2)
        #expect(summary.inSync == 1)
        #expect(Set(world.service.releases(in: Self.collectionID)) == Set((there + here).map(\.id)))
        #expect(try database.ownedReleaseIDs() == Set((there + here).map(\.id)))
        // The owned copy of a pulled release has the release's format.
        let counts = try database.read(CollectionCountsRequest())
        #expect(counts.owned == 8)

        #expect(try database.collectionSyncedAt(Self.collectionID) != nil, "the window's automatic sync waits a few hours after this")
        // Again: nothing to do, nothing sent.
        let edits = world.service.edits
        let again = try await world.sync(database).run()
        #expect(again.added == 0 && again.owned == 0 && again.inSync == 8)
        #expect(world.service.edits == edits)
    }

    @Test func moreThanAHundredGoInBatchesAndPagesOfAHundred() async throws {
        let world = try World()
        let there = (1...230).map { MusicBrainzCollectionService.release($0) }
        let here = (1001...1150).map { MusicBrainzCollectionService.release($0) }
        world.service.addCollection(id: Self.collectionID, name: "Big", releases: there)
        world.service.know(here)
        let (database, _dir) = try world.library()
        _ = _dir
        for number in 1001...1150 { try Self.own(number, in: database) }
        let summary = try await world.sync(database).run()
        #expect(summary.owned == 230)
        #expect(summary.added == 150)
        #expect(world.service.edits == 2, "150 releases in two PUTs")
        let pages = world.server.requests(path: "/ws/2/release").filter { $0.headers["authorization"] != nil }
        #expect(pages.compactMap { $0.queryItem("offset") } == ["0", "100", "200"])
        #expect(world.service.releases(in: Self.collectionID).count == 380)
    }

    @Test func aRemovalHereWaitsForConfirmationThenLeavesTheCollection() async throws {
        let world = try World()
        world.service.addCollection(id: Self.collectionID, name: "My vinyl", releases: [1, 2].map { MusicBrainzCollectionService.release($0) })
        let (database, _dir) = try world.library()
        _ = _dir
        _ = try await world.sync(database).run()
        let albumID = try #require(try database.read(CollectionAlbumsRequest(.owned)).first?.id)
        try database.unown(albumID: albumID)
        let removed = try #require(try database.album(id: albumID)?.musicBrainzReleaseID)

        let waiting = try await world.sync(database).run()
        #expect(waiting.awaitingConfirmation == [removed])
        #expect(world.service.releases(in: Self.collectionID).contains(removed), "nothing removed there unconfirmed")
        #expect(!(try database.ownedReleaseIDs()).contains(removed), "and not owned again here either")

        let dry = try await world.sync(database).run(confirmRemovals: true, dryRun: true)
        #expect(dry.removedThere == 1)
        #expect(world.service.releases(in: Self.collectionID).contains(removed))

        let confirmed = try await world.sync(database).run(confirmRemovals: true)
        #expect(confirmed.removedThere == 1)
        #expect(!world.service.releases(in: Self.collectionID).contains(removed))
    }

    @Test func twoLibrariesConvergeThroughTheService() async throws {
        let world = try World()
        world.service.addCollection(id: Self.collectionID, name: "Shared", releases: [])
        world.service.know((1...6).map { MusicBrainzCollectionService.release($0) })
        let (a, _dirA) = try world.library()
        let (b, _dirB) = try world.library()
        _ = (_dirA, _dirB)
        for number in 1...3 { try Self.own(number, in: a) }
        for number in 4...6 { try Self.own(number, in: b) }

        _ = try await world.sync(a).run()
        _ = try await world.sync(b).run()
        _ = try await world.sync(a).run()
        let all = Set((1...6).map { MusicBrainzCollectionService.release($0).id })
        #expect(try a.ownedReleaseIDs() == all)
        #expect(try b.ownedReleaseIDs() == all)

        // A removes record 1 and confirms; B, syncing after, no longer owns it either.
        let albumOne = try #require(try a.read(CollectionAlbumsRequest(.owned)).first { $0.title == "Record 1" }?.id)
        try a.unown(albumID: albumOne)
        _ = try await world.sync(a).run(confirmRemovals: true)
        let fromB = try await world.sync(b).run()
        #expect(fromB.disowned == 1)
        let rest = all.subtracting([MusicBrainzCollectionService.release(1).id])
        #expect(try b.ownedReleaseIDs() == rest)
        #expect(Set(world.service.releases(in: Self.collectionID)) == rest)
        // And neither puts it back.
        _ = try await world.sync(a).run()
        _ = try await world.sync(b).run()
        #expect(Set(world.service.releases(in: Self.collectionID)) == rest)
        #expect(try a.ownedReleaseIDs() == rest)
    }

    @Test func aFailedEditLosesNothingAndTheNextSyncFinishes() async throws {
        let world = try World()
        world.service.addCollection(id: Self.collectionID, name: "My vinyl", releases: [])
        world.service.know([MusicBrainzCollectionService.release(7)])
        let (database, _dir) = try world.library()
        _ = _dir
        try Self.own(7, in: database)
        // The browse succeeds; the PUT and its one retry meet 503s.
        world.service.fail(with: [])
        let sync = try world.sync(database)
        world.server.route("/ws/2/collection/\(Self.collectionID)/releases/*", method: "PUT", { _ in
            FixtureResponse.json(#"{"error":"busy"}"#, status: 503, headers: [("Retry-After", "1")])
        })
        await #expect(throws: MusicBrainzCollectionError.service(.busy)) { _ = try await sync.run() }
        #expect(world.service.releases(in: Self.collectionID).isEmpty)
        #expect(try database.collectionLedger(Self.collectionID).base.isEmpty, "not recorded as sent")
    }

    @Test func aMalformedPageIsAClearError() async throws {
        let world = try World()
        world.service.addCollection(id: Self.collectionID, name: "My vinyl", releases: [])
        world.service.fail(with: [.text("<html>oops</html>")])
        let (database, _dir) = try world.library()
        _ = _dir
        await #expect(throws: MusicBrainzCollectionError.service(.malformedResponse("collection releases"))) {
            _ = try await world.sync(database).run()
        }
    }
}
