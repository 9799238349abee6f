import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate pressings and crate pressing", .tags(.process))
struct PressingCommandTests {
    typealias F = PressingFixtures

    /// A crate with the vinyl Rumours (album 1), MusicBrainz and the Cover Art Archive on `server`.
    private func setUp(_ server: FixtureServer) throws -> (CLIRunner, [String: String], Int64) {
        let cli = try CLIRunner()
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        let entry = try database.saveScan(of: Album(musicBrainzReleaseID: F.vinyl, musicBrainzReleaseGroupID: F.group, title: "Rumours",
                                                    artist: "Fleetwood Mac", year: "1977"), method: .vision)
        let albumID = try #require(entry.album.id)
        try database.own(albumID: albumID)
        server.route("/ws/2/release", responses: [.json(F.browsePage([F.browseItem(F.cdRelease), F.browseItem(F.vinylRelease)], count: 2, offset: 0))])
        server.route("/ws/2/release/\(F.cd)", responses: [.json(F.lookup(F.cdRelease, titles: F.cdTracks))])
        server.route("/caa/*", responses: [.json(MusicBrainzFixtures.notFound, status: 404)])
        let environment = ["CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString, "CRATE_COVERART_URL": server.url("/caa").absoluteString]
        return (cli, environment, albumID)
    }

    @Test func pressingsAreListedAndTheAlbumSwitches() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (cli, environment, albumID) = try setUp(server)

        let json = try await cli.run(["pressings", "\(albumID)", "--json"], extraEnvironment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["album_id"] as? Int == Int(albumID) && object["current_release_id"] as? String == F.vinyl)
        let pressings = try #require(object["pressings"] as? [[String: Any]])
        #expect(pressings.map { $0["musicbrainz_release_id"] as? String } == [F.vinyl, F.cd])
        #expect(pressings.map { $0["current"] as? Bool } == [true, false])
        let release = try #require(pressings[1]["release"] as? [String: Any])
        #expect(release["barcode"] as? String == "075992731020" && release["country"] as? String == "US")
        #expect(Set(release.keys) == ["barcode", "catalog_numbers", "labels", "country", "date", "packaging", "status", "media"])
        #expect(pressings[1]["distinguishing"] as? String == "CD · US · 1987 · Warner Bros. Records · 3010-2 · 075992731020")

        let text = try await cli.run(["pressings", "\(albumID)"], extraEnvironment: environment)
        #expect(text.status == 0)
        #expect(text.stdout.contains("* \(F.vinyl)\tRumours\t12\" Vinyl · GB · 1977"))

        let switched = try await cli.run(["pressing", "\(albumID)", "--release", F.cd], extraEnvironment: environment)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(switched.stdout.contains("CD · US · 1987"))
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        #expect(try database.album(id: albumID)?.musicBrainzReleaseID == F.cd)
        #expect(try database.tracks(forAlbum: albumID).count == F.cdTracks.count)
        #expect(try database.read(CollectionStateRequest(albumID: albumID)).copies.count == 1)
    }

    @Test func badInputIsRefusedAndChangesNothing() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (cli, environment, albumID) = try setUp(server)
        var foreign = F.cdRelease
        foreign.id = F.otherGroupRelease
        server.route("/ws/2/release/\(F.otherGroupRelease)", responses: [.json(F.lookup(foreign, group: F.otherGroup, titles: ["Other"]))])
        let offline = ["CRATE_MUSICBRAINZ_URL": "http://127.0.0.1:9/ws/2", "CRATE_COVERART_URL": "http://127.0.0.1:9/caa"]

        let cases: [([String], [String: String], String)] = [
            (["pressings", "999"], environment, "No album"),
            (["pressing", "999", "--release", F.cd], environment, "No album"),
            (["pressing", "\(albumID)", "--release", "not-an-id"], environment, "is not a MusicBrainz release id"),
            (["pressing", "\(albumID)", "--release", F.otherGroupRelease], environment, "That release is not a pressing of this album"),
            (["pressing", "\(albumID)", "--release", F.cd], offline, "MusicBrainz"),
            (["pressings", "\(albumID)"], offline, "MusicBrainz"),
        ]
        for (arguments, env, message) in cases {
            let result = try await cli.run(arguments, extraEnvironment: env)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        #expect(try database.album(id: albumID)?.musicBrainzReleaseID == F.vinyl)
    }
}
