import CrateCore
import Foundation
import Testing

@Suite("crate CLI", .tags(.process))
struct CLITests {
    @Test func printsItsVersion() async throws {
        let result = try await CLIRunner().run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(CrateVersion.string))
    }

    @Test func historyJSONOnAnEmptyLibraryIsAnEmptyArray() async throws {
        let result = try await CLIRunner().run(["history", "--json"])
        #expect(result.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        #expect(parsed?.isEmpty == true)
    }

    @Test func historyJSONListsNewestFirstAndHonoursLimit() async throws {
        let cli = try CLIRunner()
        do {
            let db = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            try db.saveScan(of: Album(title: "Kind of Blue", artist: "Miles Davis", year: "1959"), method: .vision, at: Date(timeIntervalSince1970: 100))
            try db.saveScan(of: Album(title: "<b>x</b> & y", artist: "Sunn O)))"), method: .localMatch, at: Date(timeIntervalSince1970: 200))
            try db.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac"), method: .vision, at: Date(timeIntervalSince1970: 300))
        }
        let result = try await cli.run(["history", "--json", "--limit", "2"])
        #expect(result.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        let titles = items.compactMap { ($0["album"] as? [String: Any])?["title"] as? String }
        #expect(titles == ["Rumours", "<b>x</b> & y"])
        #expect(items[1]["method"] as? String == "local")

        let table = try await cli.run(["history"])
        #expect(table.stdout.contains("Miles Davis — Kind of Blue (1959)"))
    }

    @Test func invalidLimitIsRejected() async throws {
        let result = try await CLIRunner().run(["history", "--limit", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--limit"))
    }

    @Test func doctorReportsDirectoriesSchemaEndpointsAndKeySourcesButNeverKeys() async throws {
        let cli = try CLIRunner()
        let canary = "sk-ant-CANARY-\(UUID().uuidString)"
        let result = try await cli.run(["doctor"], extraEnvironment: [
            "ANTHROPIC_API_KEY": canary,
            "CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:9/ws/2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(cli.root.appendingPathComponent("data").path))
        #expect(result.stdout.contains(cli.root.appendingPathComponent("cache").path))
        #expect(result.stdout.contains(cli.root.appendingPathComponent("config").path))
        #expect(result.stdout.contains("schema  \(AppDatabase.knownMigrations.last!)"))
        #expect(result.stdout.contains("http://127.0.0.1:9/ws/2"))
        #expect(result.stdout.contains("from $ANTHROPIC_API_KEY"))
        #expect(result.stdout.contains("openai     no key"))
        #expect(!result.stdout.contains(canary) && !result.stderr.contains(canary))
    }

    @Test func doctorReportsTheListenBrainzUserAndWhereTheTokenComesFromButNeverTheToken() async throws {
        let cli = try CLIRunner()
        let canary = "lb-CANARY-\(UUID().uuidString)"
        let with = try await cli.run(["doctor"], extraEnvironment: [
            "CRATE_LISTENBRAINZ_TOKEN": canary,
            "CRATE_LISTENBRAINZ_USER": "rob",
            "CRATE_LISTENBRAINZ_URL": "http://127.0.0.1:9",
            "CRATE_SECRET_SERVICE": "off",
        ])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains("ListenBrainz:"))
        #expect(with.stdout.contains("user    rob"))
        #expect(with.stdout.contains("token   from $CRATE_LISTENBRAINZ_TOKEN"))
        #expect(with.stdout.contains("listenbrainz http://127.0.0.1:9"))
        #expect(!with.stdout.contains(canary) && !with.stderr.contains(canary))

        let without = try await cli.run(["doctor"], extraEnvironment: ["CRATE_SECRET_SERVICE": "off"])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stdout.contains("user    none"))
        #expect(without.stdout.contains("token   none"))
    }

    @Test func doctorSaysWhereTheDiscogsTokenComesFromButNeverTheToken() async throws {
        let cli = try CLIRunner()
        let canary = "dc-CANARY-\(UUID().uuidString)"
        let with = try await cli.run(["doctor"], extraEnvironment: [
            "CRATE_DISCOGS_TOKEN": canary, "CRATE_DISCOGS_URL": "http://127.0.0.1:9", "CRATE_SECRET_SERVICE": "off",
        ])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout.contains("Discogs token: from $CRATE_DISCOGS_TOKEN"), "\(with.stdout)")
        #expect(with.stdout.contains("discogs      http://127.0.0.1:9"))
        #expect(!with.stdout.contains(canary) && !with.stderr.contains(canary))

        let without = try await cli.run(["doctor"], extraEnvironment: ["CRATE_SECRET_SERVICE": "off"])
        #expect(without.stdout.contains("Discogs token: none"), "\(without.stdout)")
    }

    @Test func anUnwritableDataDirectoryExitsOneNamingIt() async throws {
        let cli = try CLIRunner()
        let blocker = cli.root.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let dataDir = blocker.appendingPathComponent("crate").path
        let result = try await cli.run(["history"], extraEnvironment: ["CRATE_DATA_DIR": dataDir])
        #expect(result.status == 1)
        #expect(result.stderr.contains(dataDir))
        let doctor = try await cli.run(["doctor"], extraEnvironment: ["CRATE_DATA_DIR": dataDir])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains(dataDir))
    }

    @Test func aDamagedLibraryIsMovedAsideWithAMessage() async throws {
        let cli = try CLIRunner()
        let data = cli.root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 5000).write(to: data.appendingPathComponent("crate.sqlite"))
        let result = try await cli.run(["history", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("moved to"))
        #expect((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any])?.isEmpty == true)
    }
}
