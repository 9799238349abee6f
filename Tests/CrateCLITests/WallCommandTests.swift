import CrateCore
import CrateTestSupport
import Foundation
import Synchronization
import Testing

@Suite("crate wall, favorite, dislike, unrate, feedback", .tags(.process))
struct WallCommandTests {
    static func environment(_ server: FixtureServer, token: Bool = true, user: Bool = true) -> [String: String] {
        var env = [
            "CRATE_SECRET_SERVICE": "off",
            "CRATE_LISTENBRAINZ_URL": server.baseURL.absoluteString,
            "CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString,
            "CRATE_COVERART_URL": server.url("/caa").absoluteString,
        ]
        if token { env["CRATE_LISTENBRAINZ_TOKEN"] = "secret-token" }
        if user { env["CRATE_LISTENBRAINZ_USER"] = "rob" }
        return env
    }

    struct WallOutput: Decodable {
        struct Item: Decodable {
            let signal: String
            let title: String
            let artist: String
            let musicbrainz_release_group_id: String
        }
        struct Missing: Decodable {
            let signal: String
            let reason: String
        }
        let dial: String
        let items: [Item]
        let unavailable: [Missing]
    }

    @Test func wallPrintsTheDialsCountsAsJSONAndIsStored() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)

        let result = try await cli.run(["wall", "--dial", "deep-dig", "--count", "60", "--json"], extraEnvironment: Self.environment(server))

        #expect(result.status == 0, "\(result.stderr)")
        let wall = try JSONDecoder().decode(WallOutput.self, from: Data(result.stdout.utf8))
        #expect(wall.dial == "deep-dig" && wall.items.count == 60 && wall.unavailable.isEmpty)
        let counts = wall.items.reduce(into: [String: Int]()) { $0[$1.signal, default: 0] += 1 }
        #expect(counts == ["listening-history": 6, "recommendations": 18, "popular-charts": 6, "new-releases": 12, "wild-card": 18])
        // The token went to ListenBrainz only.
        #expect(server.requests.filter { $0.path.hasPrefix("/ws/2") }.allSatisfy { $0.headers["authorization"] == nil })

        // Offline afterwards: the stored wall (and its dial) is what `--cached` prints.
        server.stop()
        let cached = try await cli.run(["wall", "--cached", "--json"], extraEnvironment: Self.environment(server))
        let stored = try JSONDecoder().decode(WallOutput.self, from: Data(cached.stdout.utf8))
        #expect(stored.dial == "deep-dig" && stored.items.map(\.musicbrainz_release_group_id) == wall.items.map(\.musicbrainz_release_group_id))
        // A refresh with every source gone keeps the last wall and says so.
        let offline = try await cli.run(["wall", "--json"], extraEnvironment: Self.environment(server))
        #expect(offline.status == 0)
        #expect(offline.stderr.contains("last wall"))
        #expect(try JSONDecoder().decode(WallOutput.self, from: Data(offline.stdout.utf8)).items.count == 60)
    }

    @Test func aBadTokenStillBuildsTheWallAndSaysWhy() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        for route in ["/1/stats/user/*", "/1/user/*", "/1/cf/recommendation/user/*"] {
            server.route(route, responses: [.json(ListenBrainzFixtures.badToken, status: 401)])
        }

        let result = try await cli.run(["wall", "--json"], extraEnvironment: Self.environment(server))

        #expect(result.status == 0, "\(result.stderr)")
        let wall = try JSONDecoder().decode(WallOutput.self, from: Data(result.stdout.utf8))
        #expect(wall.items.count == 60)
        #expect(Set(wall.unavailable.map(\.signal)) == ["listening-history", "recommendations"])
        #expect(wall.unavailable.allSatisfy { $0.reason.contains("token") })
    }

    @Test func dislikedAlbumsLeaveTheWallAndRatingsAreExclusive() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        let env = Self.environment(server, token: false)
        let first = try JSONDecoder().decode(WallOutput.self, from: Data(try await cli.run(["wall", "--json"], extraEnvironment: env).stdout.utf8))
        let victims = first.items.prefix(3).map(\.musicbrainz_release_group_id)

        for id in victims {
            let result = try await cli.run(["dislike", id], extraEnvironment: env)
            #expect(result.status == 0 && result.stdout.contains("disliked"), "\(result.stderr)")
        }
        let again = try JSONDecoder().decode(WallOutput.self, from: Data(try await cli.run(["wall", "--json"], extraEnvironment: env).stdout.utf8))
        #expect(again.items.count == 60)
        #expect(again.items.allSatisfy { !victims.contains($0.musicbrainz_release_group_id) })

        // A favourite replaces the dislike; unrate clears it. No token: nothing is queued.
        #expect(try await cli.run(["favorite", victims[0]], extraEnvironment: env).status == 0)
        let paths = CratePaths(environment: cli.environment)
        let db = try AppDatabase.open(paths: paths)
        #expect(try db.read(AlbumRatingsRequest())[try MBID(victims[0])] == .favourite)
        #expect(try await cli.run(["unrate", victims[0]], extraEnvironment: env).status == 0)
        #expect(try db.read(AlbumRatingsRequest())[try MBID(victims[0])] == nil)
        let status = try await cli.run(["feedback", "status", "--json"], extraEnvironment: env)
        #expect(status.stdout.contains(#""pending" : 0"#) && status.stdout.contains(#""token_set" : false"#))

        // Bad album ids are refused with a sentence.
        let unknown = try await cli.run(["favorite", "../../etc/passwd"], extraEnvironment: env)
        #expect(unknown.status == 1 && unknown.stderr.contains("No album"))
        let missing = try await cli.run(["dislike", "424242"], extraEnvironment: env)
        #expect(missing.status == 1 && missing.stderr.contains("No album 424242"))
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let cli = try CLIRunner()
        for arguments in [["wall", "--count", "0"], ["wall", "--count", "100000"], ["wall", "--dial", "loud"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    /// The outbox survives kill -9: a `crate favorite` killed while ListenBrainz hangs on its
    /// second recording leaves the album's feedback in the outbox with what was sent; the next
    /// `crate feedback send` sends only the rest. Every recording is accepted exactly once.
    @Test(.timeLimit(.minutes(6)))
    func theOutboxSurvivesKillAndSendsEachFeedbackOnce() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        ListenBrainzWorld.install(on: server)
        let accepted = Mutex<[String: Int]>([:])
        let hang = Mutex(false)
        let posts = Mutex(0)
        server.route("/1/feedback/recording-feedback", method: "POST") { request in
            let n = posts.withLock { $0 += 1; return $0 }
            // The first album goes through; the second album's second recording hangs.
            if hang.withLock({ $0 }) && n == 5 { return .never }
            if let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any], let id = object["recording_mbid"] as? String {
                accepted.withLock { $0[id, default: 0] += 1 }
            }
            return .json(#"{"status":"ok"}"#, headers: ListenBrainzFixtures.rateLimitHeaders())
        }
        let env = Self.environment(server)
        let wall = try JSONDecoder().decode(WallOutput.self, from: Data(try await cli.run(["wall", "--json"], extraEnvironment: env).stdout.utf8))
        let albums = wall.items.prefix(2).map(\.musicbrainz_release_group_id)

        let first = try await cli.run(["favorite", albums[0]], extraEnvironment: env)
        #expect(first.status == 0 && first.stdout.contains("Sent to ListenBrainz"), "\(first.stdout) \(first.stderr)")
        #expect(accepted.withLock { $0.count } == 3)

        hang.withLock { $0 = true }
        let environment = cli.environment.merging(env) { _, new in new }
        let killed = try await BlockingWork.run { () -> Bool in
            let child = try ChildProcess(["dislike", albums[1]], environment: environment, captureOutput: false)
            let deadline = Date().addingTimeInterval(120)  // Only catches a hang.
            while posts.withLock({ $0 }) < 5, Date() < deadline { usleep(10_000) }
            return child.kill9()
        }
        #expect(killed)
        #expect(accepted.withLock { $0.count } == 4)
        hang.withLock { $0 = false }

        let status = try await cli.run(["feedback", "status", "--json"], extraEnvironment: env)
        #expect(status.stdout.contains(#""pending" : 1"#), "\(status.stdout)")
        let send = try await cli.run(["feedback", "send"], extraEnvironment: env)
        #expect(send.status == 0 && send.stdout.contains("Sent 1 album"), "\(send.stdout) \(send.stderr)")

        let counts = accepted.withLock { $0 }
        #expect(counts.count == 6, "\(counts)")
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
        let after = try await cli.run(["feedback", "status", "--json"], extraEnvironment: env)
        #expect(after.stdout.contains(#""pending" : 0"#) && after.stdout.contains(#""sent" : 2"#), "\(after.stdout)")
        // Nothing more goes on another pass.
        _ = try await cli.run(["feedback", "send"], extraEnvironment: env)
        #expect(accepted.withLock { $0.values.reduce(0, +) } == 6)
    }
}
