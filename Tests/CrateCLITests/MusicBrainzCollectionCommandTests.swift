import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate mb-collection", .tags(.process))
struct MusicBrainzCollectionCommandTests {
    static let collectionID = "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9"


    @Test func twoMachinesConvergeThroughOneCollection() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let service = MusicBrainzCollectionService(server: server)
        service.addCollection(id: Self.collectionID, name: "Shelf \u{1B}]0;x\u{07}", releases: [MusicBrainzCollectionService.release(1)])
        service.know([MusicBrainzCollectionService.release(2)])
        let env = ["CRATE_MUSICBRAINZ_URL": MusicBrainzCollectionService.endpoint(server).absoluteString,
                   "CRATE_MUSICBRAINZ_USER": service.user, "CRATE_MUSICBRAINZ_PASSWORD": service.password]
        let first = try CLIRunner()
        let second = try CLIRunner()

        // No collection chosen yet: says how to choose one.
        let unchosen = try await first.run(["mb-collection", "sync"], extraEnvironment: env)
        #expect(unchosen.status == 1 && unchosen.stderr.contains("mb-collection use"), "\(unchosen.stderr)")
        // A wrong password: says so, and never prints it.
        var wrong = env
        wrong["CRATE_MUSICBRAINZ_PASSWORD"] = "not it"
        let refused = try await first.run(["mb-collection", "list"], extraEnvironment: wrong)
        #expect(refused.status == 1 && refused.stderr.contains("refused the user name or password"))

        let listed = try await first.run(["mb-collection", "list"], extraEnvironment: env)
        #expect(listed.status == 0 && listed.stdout.contains(Self.collectionID) && !listed.stdout.contains("\u{1B}"), "\(listed.stdout)\(listed.stderr)")
        for runner in [first, second] {
            let chosen = try await runner.run(["mb-collection", "use", Self.collectionID], extraEnvironment: env)
            #expect(chosen.status == 0, "\(chosen.stderr)")
        }

        // Machine 1 owns record 2; its sync adds it there and owns record 1 here.
        let database = try AppDatabase.open(paths: first.paths)
        let release = MusicBrainzCollectionService.release(2)
        var album = Album(title: release.title, artist: release.artist)
        album.musicBrainzReleaseID = release.id
        try database.own(albumID: try database.addToCrate(album))
        let dry = try await first.run(["mb-collection", "sync", "--dry-run", "--json"], extraEnvironment: env)
        #expect(dry.status == 0 && dry.stdout.contains("\"added\" : 1") && dry.stdout.contains("\"owned\" : 1"), "\(dry.stdout)\(dry.stderr)")
        #expect(service.releases(in: Self.collectionID).count == 1, "a dry run changes nothing")
        let synced = try await first.run(["mb-collection", "sync"], extraEnvironment: env)
        #expect(synced.status == 0 && synced.stdout.contains("1 added to MusicBrainz") && synced.stdout.contains("1 new from MusicBrainz"), "\(synced.stdout)")

        // Machine 2 pulls both.
        let pulled = try await second.run(["mb-collection", "sync", "--json"], extraEnvironment: env)
        #expect(pulled.status == 0 && pulled.stdout.contains("\"owned\" : 2"), "\(pulled.stdout)\(pulled.stderr)")
        let owned = try AppDatabase.open(paths: second.paths).ownedReleaseIDs()
        #expect(owned == Set([MusicBrainzCollectionService.release(1).id, release.id]))
    }
}
