import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// `crate import discogs-csv`, `crate import discogs` and `crate import status` as processes
/// against a loopback MusicBrainz and Discogs, at the real MusicBrainz pacing.
@Suite("crate import", .tags(.process))
struct ImportCommandTests {
    func environment(_ server: FixtureServer) -> [String: String] {
        ["CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString, "CRATE_COVERART_URL": server.url("/caa").absoluteString,
         "CRATE_DISCOGS_URL": server.baseURL.absoluteString]
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func badFilesSayWhatIsWrongAndStageNothing() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let cases: [(String, Data, String)] = [
            ("empty.csv", Data(), "empty"),
            ("photo.csv", Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]), "not a CSV text file"),
            ("other.csv", Data("Name,Year\nCan,1971\n".utf8), "not a Discogs collection or wantlist export"),
            ("ids.csv", Data((DiscogsImportFixtures.header + "\nK 1,A,B,L,LP,,1977,12,,,,,\nK 2,A,B,L,LP,,1977,abc,,,,,\n").utf8), "“abc” on line 3"),
        ]
        for (name, data, message) in cases {
            let file = cli.root.appendingPathComponent(name)
            try data.write(to: file)
            let result = try await cli.run(["import", "discogs-csv", file.path], extraEnvironment: environment(server))
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        }
        let missing = try await cli.run(["import", "discogs-csv", cli.root.appendingPathComponent("nope.csv").path], extraEnvironment: environment(server))
        #expect(missing.status == 1 && missing.stderr.contains("nope.csv"))
        let status = try json(try await cli.run(["import", "status", "--json"], extraEnvironment: environment(server)).stdout)
        #expect(status["records"] as? Int == 0)
        #expect(server.requests.isEmpty)
    }

    @Test func aCSVImportsOnceWithADryRunFirst() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let records = DiscogsImportFixtures.collection(count: 45, seed: 9)
        MusicBrainzBatchSearchFixture(records: records).serve(on: server)
        let file = cli.root.appendingPathComponent("export.csv")
        try DiscogsImportFixtures.csv(records).write(to: file, atomically: true, encoding: .utf8)
        let rows = records.reduce(0) { $0 + $1.copies }

        let dry = try json(try await cli.run(["import", "discogs-csv", file.path, "--dry-run", "--json"], extraEnvironment: environment(server)).stdout)
        #expect(dry["new"] as? Int == rows && server.requests.isEmpty)

        let run = try await cli.run(["import", "discogs-csv", file.path, "--json"], extraEnvironment: environment(server))
        #expect(run.status == 0, "\(run.stderr)")
        let out = try json(run.stdout)
        #expect(out["staged"] as? Int == rows && out["pending"] as? Int == 0)
        #expect((out["matched"] as? Int ?? 0) + (out["discogs_only"] as? Int ?? 0) == rows)

        let again = try json(try await cli.run(["import", "discogs-csv", file.path, "--json"], extraEnvironment: environment(server)).stdout)
        #expect(again["staged"] as? Int == 0 && again["already_imported"] as? Int == rows)
        let owned = try json(try await cli.run(["collection", "--owned", "--json"], extraEnvironment: environment(server)).stdout)
        let copies = (owned["albums"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["copies"] as? [Any])?.count ?? 0) }
        #expect(copies == rows)
    }

    @Test func theAPIImportReadsTheTokensUserCollectionAndWantlist() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let records = DiscogsImportFixtures.collection(count: 30, seed: 4)
        MusicBrainzBatchSearchFixture(records: records).serve(on: server)
        let base = server.baseURL
        server.route("/oauth/identity", responses: [.json(DiscogsFixtures.identity(username: "digger"))])
        server.route("/users/digger/collection/folders/0/releases") { request in
            .json(DiscogsCollectionFixtures.collectionPage(Array(records.prefix(20)), page: Int(request.queryItem("page") ?? "1") ?? 1, base: base))
        }
        server.route("/users/digger/wants") { request in
            .json(DiscogsCollectionFixtures.wantsPage(Array(records.suffix(10)), page: Int(request.queryItem("page") ?? "1") ?? 1, base: base))
        }
        var env = environment(server)
        env["CRATE_DISCOGS_TOKEN"] = "disc-token"
        let run = try await cli.run(["import", "discogs", "--json"], extraEnvironment: env)
        #expect(run.status == 0, "\(run.stderr)")
        let out = try json(run.stdout)
        #expect(out["records"] as? Int == records.prefix(20).reduce(0) { $0 + $1.copies } + 10)
        let wanted = try json(try await cli.run(["collection", "--wanted", "--json"], extraEnvironment: env).stdout)
        #expect((wanted["albums"] as? [Any])?.count == 10)

        server.route("/users/someone/collection/folders/0/releases", responses: [.json(#"{"message":"You don't have permission to access this resource."}"#, status: 403)])
        let refused = try await cli.run(["import", "discogs", "--user", "someone"], extraEnvironment: env)
        #expect(refused.status == 1 && refused.stderr.contains("private"), "\(refused.stderr)")
        server.route("/users/nobody/collection/folders/0/releases", responses: [.json(#"{"message":"User does not exist or may have been deleted."}"#, status: 404)])
        let missing = try await cli.run(["import", "discogs", "--user", "nobody"], extraEnvironment: env)
        #expect(missing.status == 1 && missing.stderr.contains("no user"), "\(missing.stderr)")

        let noToken = try await cli.run(["import", "discogs"], extraEnvironment: environment(server))
        #expect(noToken.status == 1 && noToken.stderr.contains("Discogs token"))
    }

    /// Killed with SIGKILL at random moments ten times, then run to the end: one copy per row.
    @Test(.tags(.slow), .timeLimit(.minutes(10)))
    func killedTenTimesAndResumedNothingTwiceNothingLost() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        // About 35 searches at 1.1 s: long enough for ten random kills before it ends.
        let records = DiscogsImportFixtures.collection(count: 600, seed: 21)
        MusicBrainzBatchSearchFixture(records: records).serve(on: server)
        let file = cli.root.appendingPathComponent("export.csv")
        try DiscogsImportFixtures.csv(records).write(to: file, atomically: true, encoding: .utf8)
        let rows = records.reduce(0) { $0 + $1.copies }
        let env = cli.environment.merging(environment(server)) { _, new in new }
        let kills = try await BlockingWork.run { () -> Int in
            var kills = 0, attempts = 0
            while kills < 10, attempts < 60 {
                attempts += 1
                let child = try ChildProcess(["import", "discogs-csv", file.path, "--json"], environment: env, captureOutput: false)
                usleep(UInt32.random(in: 200_000...2_500_000))
                if child.kill9() { kills += 1 }
            }
            return kills
        }
        #expect(kills == 10)
        let final = try await cli.run(["import", "discogs-csv", file.path, "--json"], extraEnvironment: environment(server))
        #expect(final.status == 0, "\(final.stderr)")
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let copies = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM album_copy") ?? 0 }
        let counts = try database.discogsImportCounts()
        #expect(copies == rows && counts.total == rows && counts.pending == 0)
        // Slots are booked 1.1 s apart across processes (exactly so on a manual clock:
        // SharedPacingTests). Measured at the server, one request may arrive late after a busy
        // moment and the next on time, so the span is what is checked, with 10 % for that; a
        // process pacing alone would crowd them (as SharedPacingEndToEndTests explains).
        let arrivals = server.requests(path: "/ws/2/release").map(\.uptime).sorted()
        let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
        let span = (arrivals.last ?? 0) - (arrivals.first ?? 0)
        print("import: \(arrivals.count) MusicBrainz searches over \(String(format: "%.1f", span)) s, smallest gap \(String(format: "%.3f", gaps.min() ?? 0)) s")
        #expect(span >= Double(gaps.count) * 1.1 * 0.9, "span \(span) s for \(gaps.count) gaps: \(gaps.map { String(format: "%.3f", $0) })")
    }
}
