import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

/// Every album reaches a complete state eventually: a track list or artwork that did not arrive
/// after the scan was saved (a 503, a silent server, a kill) is pending work in the library, which
/// `--json` reports and the next Crate process — or a re-scan — finishes.
@Suite("Pending album details", .tags(.process, .slow))
struct PendingDetailsTests {
    /// Whether the fixture's release lookup (and, when asked, the artwork) answers properly.
    final class Health: Sendable {
        private let healthy = Atomic<Bool>(false)
        var isHealthy: Bool { healthy.load(ordering: .sequentiallyConsistent) }
        func recover() { healthy.store(true, ordering: .sequentiallyConsistent) }
    }

    enum Outage {
        case serviceUnavailable
        case silence
    }

    static let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
    static let cover = ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")

    /// The end-to-end fixture, except that `/ws/2/release/<id>` fails until `health.recover()`.
    /// With `artworkToo`, the Cover Art Archive is silent as well until then.
    static func serve(_ server: FixtureServer, outage: Outage, health: Health, artworkToo: Bool = false) throws {
        ScanEndToEndTests.serve(server, cover: try Data(contentsOf: cover))
        let id = MusicBrainzFixtures.rumoursReleaseID
        let down: FixtureResponse
        switch outage {
        case .serviceUnavailable: down = .json(#"{"error":"The server is busy"}"#, status: 503)
        case .silence: down = .never
        }
        server.route("/ws/2/release/\(id)") { _ in health.isHealthy ? .json(MusicBrainzFixtures.rumoursLookup) : down }
        if artworkToo {
            let index = CoverArtFixtures.index(releaseID: id, imageBase: server.url("/caa"))
            server.route("/storage/\(id)/index.json") { _ in health.isHealthy ? .json(index) : .never }
        }
    }

    static func object(_ stdout: String) throws -> [String: Any] {
        let line = try #require(stdout.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func trackStatus(_ object: [String: Any]) -> String? {
        (object["tracks"] as? [String: Any])?["status"] as? String
    }

    static func albumID(_ cli: CLIRunner) throws -> Int64 {
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let album = try #require(try database.read(AllAlbumsRequest(sortedBy: .recentlyScanned)).first?.album)
        return try #require(album.id)
    }

    static func trackCount(_ cli: CLIRunner) throws -> Int {
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        return try database.tracks(forAlbum: try albumID(cli)).count
    }

    /// docs/reliability.md #20: a 503 on the release lookup after the scan was saved.
    @Test(.timeLimit(.minutes(6)))
    func aFailedReleaseLookupIsReportedPendingAndALaterRunFillsTheTrackList() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let health = Health()
        try Self.serve(server, outage: .serviceUnavailable, health: health)
        let cli = try CLIRunner()
        let environment = ScanEndToEndTests.environment(server)

        let scan = try await cli.run(["scan", "--json", Self.photo], extraEnvironment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let object = try Self.object(scan.stdout)
        #expect(Self.trackStatus(object) == "pending", "\(scan.stdout)")
        #expect((object["artwork"] as? [String: Any])?["status"] as? String == "ok")
        #expect(try Self.trackCount(cli) == 0)

        // While MusicBrainz is still down, playing says the track list is on its way.
        let albumID = try Self.albumID(cli)
        let refused = try await cli.run(["play", String(albumID), "--simulate-seconds", "60"], extraEnvironment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("has not arrived yet"), "\(refused.stderr)")

        // The next Crate process with network services finishes it: here a batch run with nothing queued.
        health.recover()
        let next = try await cli.run(["batch", "run", "--json"], extraEnvironment: environment)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.trackCount(cli) == 3)

        let play = try await cli.run(["play", String(albumID), "--simulate-seconds", "60"], extraEnvironment: environment)
        #expect(play.status == 0, "\(play.stderr)")
        #expect(play.stdout.contains("Second Hand News"))
    }

    /// A lookup MusicBrainz never answers (within the request timeout, after one retry).
    @Test(.timeLimit(.minutes(6)))
    func aSilentReleaseLookupIsReportedPendingAndRepaired() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let health = Health()
        try Self.serve(server, outage: .silence, health: health)
        let cli = try CLIRunner()
        let environment = ScanEndToEndTests.environment(server)

        let scan = try await cli.run(["scan", "--json", Self.photo], extraEnvironment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(Self.trackStatus(try Self.object(scan.stdout)) == "pending", "\(scan.stdout)")

        health.recover()
        let repair = try await cli.run(["batch", "run"], extraEnvironment: environment)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(try Self.trackCount(cli) == 3)
    }

    /// Scanning the album again (a tier-0 match: its artwork is known) fetches the missing tracks.
    @Test(.timeLimit(.minutes(6)))
    func aTierZeroRescanRepairsMissingTracks() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let health = Health()
        try Self.serve(server, outage: .serviceUnavailable, health: health)
        let cli = try CLIRunner()
        let environment = ScanEndToEndTests.environment(server)
        let first = try await cli.run(["scan", "--json", Self.photo], extraEnvironment: environment)
        #expect(Self.trackStatus(try Self.object(first.stdout)) == "pending", "\(first.stdout)")

        health.recover()
        let again = try await cli.run(["scan", "--json", Self.photo], extraEnvironment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        let object = try Self.object(again.stdout)
        #expect(object["tier"] as? String == "local")
        #expect(Self.trackStatus(object) == "ok", "\(again.stdout)")
        #expect(try Self.trackCount(cli) == 3)
    }

    /// docs/reliability.md #21: a batch run killed after the save, while artwork and tracks were
    /// still on their way, leaves them pending; the next run picks them up.
    @Test(.timeLimit(.minutes(6)))
    func detailsLeftPendingByAKilledRunAreRepairedByTheNextRun() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let health = Health()
        try Self.serve(server, outage: .silence, health: health, artworkToo: true)
        let cli = try CLIRunner()
        let environment = cli.environment.merging(ScanEndToEndTests.environment(server)) { _, new in new }
        let paths = CratePaths(environment: cli.environment)
        let added = try await cli.run(["batch", "add", Self.photo])
        #expect(added.status == 0, "\(added.stderr)")

        let killed = try await BlockingWork.run { () -> Bool in
            let child = try ChildProcess(["batch", "run"], environment: environment, captureOutput: false)
            let database = try AppDatabase.open(paths: paths)
            let deadline = Date().addingTimeInterval(240)  // Only catches a hang (the test's limit is 6 min).
            while try database.counts().scans == 0, Date() < deadline { usleep(20_000) }
            usleep(300_000)  // Well inside the silent artwork and lookup requests.
            return child.kill9()
        }
        #expect(killed, "the run must still be waiting for details when it is killed")
        let database = try AppDatabase.open(paths: paths)
        let album = try #require(try database.read(AllAlbumsRequest(sortedBy: .recentlyScanned)).first?.album)
        #expect(album.artworkStatus == .pending)

        health.recover()
        let next = try await cli.run(["batch", "run"], extraEnvironment: ScanEndToEndTests.environment(server))
        #expect(next.status == 0, "\(next.stderr)")
        let id = try #require(album.id)
        let repaired = try #require(try database.album(id: id))
        #expect(repaired.artworkStatus == .available)
        #expect(try database.tracks(forAlbum: id).count == 3)
    }
}
