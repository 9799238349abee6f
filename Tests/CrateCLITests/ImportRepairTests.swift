import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// `crate repair` searches the "Discogs only" records again, batched.
@Suite("crate repair and Discogs-only records", .tags(.process))
struct ImportRepairTests {
    @Test func repairMatchesWhatMusicBrainzNowKnows() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let known = DiscogsImportFixtures.collection(count: 20, seed: 17)
        var records = known
        for index in [1, 5, 9] { records[index].mbid = nil }
        let before = MusicBrainzBatchSearchFixture(records: records), after = MusicBrainzBatchSearchFixture(records: known)
        let learned = EventCounter()
        server.route("/ws/2/release") { request in learned.count == 0 ? before.answer(request) : after.answer(request) }
        server.route("/ws/2/release/*", responses: [.notFound])
        server.route("/caa/*", responses: [.notFound])
        let env = ["CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString, "CRATE_COVERART_URL": server.url("/caa").absoluteString]
        let file = cli.root.appendingPathComponent("export.csv")
        try DiscogsImportFixtures.csv(records).write(to: file, atomically: true, encoding: .utf8)
        let unknownRows = { (list: [DiscogsImportFixtures.Record]) in list.filter { $0.mbid == nil }.reduce(0) { $0 + $1.copies } }

        let imported = try await cli.run(["import", "discogs-csv", file.path, "--json"], extraEnvironment: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(try await cli.run(["import", "status", "--json"], extraEnvironment: env).stdout.utf8)) as? [String: Any])
        #expect(status["discogs_only"] as? Int == unknownRows(records))
        #expect((status["discogs_only_records"] as? [Any])?.count == unknownRows(records))

        learned.signal()
        let repaired = try await cli.run(["repair", "--json", "--limit", "1"], extraEnvironment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(repaired.stdout.utf8)) as? [String: Any], "\(repaired.stdout) \(repaired.stderr)")
        let discogs = try #require(object["discogs_only"] as? [String: Any])
        #expect(discogs["left"] as? Int == unknownRows(known))
        #expect(discogs["matched"] as? Int == unknownRows(records) - unknownRows(known))
    }
}
