import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate discogs", .tags(.process))
struct DiscogsCommandTests {

    @Test func anAlbumIsAddedQueuedOfflineAndSentOnceWhenBack() async throws {
        let runner = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let world = DiscogsAccountWorld()
        world.install(on: server)
        let database = try AppDatabase.open(paths: runner.paths)
        let album = try database.saveScan(of: Album(title: "Rumours", artist: "Fleetwood Mac", year: "1977"), method: .manual).album
        let id = try #require(album.id)
        let link = DiscogsLink(releaseID: 1873013, url: URL(string: "https://www.discogs.com/release/1873013")!, score: 0.97, title: "Rumours", year: "1977")
        try database.saveDiscogsState(.linked(link), forAlbum: id, at: Date())
        let online = ["CRATE_DISCOGS_TOKEN": "disc-token", "CRATE_DISCOGS_URL": server.baseURL.absoluteString, "CRATE_SECRET_SERVICE": "off"]
        var offline = online
        offline["CRATE_DISCOGS_URL"] = "http://127.0.0.1:9"

        let added = try await runner.run(["discogs", "add", "\(id)", "--collection"], extraEnvironment: online)
        #expect(added.status == 0 && added.stdout.contains("Added to your Discogs collection"), "\(added.stdout)\(added.stderr)")
        let status = try await runner.run(["discogs", "status", "\(id)", "--json"], extraEnvironment: online)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(report["copies"] as? Int == 1 && report["in_wantlist"] as? Bool == false && report["discogs_release_id"] as? Int == 1873013)

        let queued = try await runner.run(["discogs", "add", "\(id)", "--wantlist"], extraEnvironment: offline)
        #expect(queued.status == 0 && queued.stdout.contains("Queued for your Discogs wantlist"), "\(queued.stdout)\(queued.stderr)")
        #expect(queued.stderr.contains("Could not reach Discogs"))
        let sent = try await runner.run(["discogs", "send", "--json"], extraEnvironment: online)
        #expect(sent.status == 0 && sent.stdout.contains("\"sent\" : 1"), "\(sent.stdout)\(sent.stderr)")
        #expect(world.writes.withLock { $0 } == ["POST 1873013", "PUT 1873013"])
        let plain = try await runner.run(["discogs", "status", "\(id)"], extraEnvironment: online)
        #expect(plain.stdout.contains("In your Discogs collection (1 copy) · In your wantlist"), "\(plain.stdout)\(plain.stderr)")

        let wrong = try await runner.run(["discogs", "add", "\(id)"], extraEnvironment: online)
        #expect(wrong.status != 0 && wrong.stderr.contains("--collection or --wantlist"))
        let noToken = try await runner.run(["discogs", "add", "\(id)", "--collection"], extraEnvironment: ["CRATE_SECRET_SERVICE": "off"])
        #expect(noToken.status == 1 && noToken.stderr.contains("Discogs token"))
        #expect(!added.stdout.contains("disc-token") && !queued.stderr.contains("disc-token"))
    }
}
