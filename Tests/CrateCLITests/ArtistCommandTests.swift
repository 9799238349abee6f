import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate artist and crate genres", .tags(.process))
struct ArtistCommandTests {
    static let artistID = "65f4f0c5-ef9e-490c-aee3-909e7ae6b2ab"

    static func environment(musicBrainz: String) -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["CRATE_MUSICBRAINZ_URL": musicBrainz, "CRATE_DATA_FILES": root.appendingPathComponent("data").path]
    }

    @Test func anArtistByIdIsListedOldestFirstAndASecondRunNeedsNoNetwork() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let groups = MusicBrainzArtistFixtures.catalogue(count: 250)
        MusicBrainzArtistFixtures.serveCatalogue(on: server, artistID: Self.artistID, artistName: "Sunn O)))", groups: groups)
        let cli = try CLIRunner()

        let result = try await cli.run(["artist", "--mbid", Self.artistID, "--json"],
                                       extraEnvironment: Self.environment(musicBrainz: server.url("/ws/2").absoluteString))

        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Sunn O)))")
        #expect(object["complete"] as? Bool == true)
        let items = try #require(object["release_groups"] as? [[String: Any]])
        #expect(items.count == 250)
        #expect(Set(items.compactMap { $0["id"] as? String }).count == 250)
        let dates = items.map { $0["first_release_date"] as? String }
        let dated = dates.prefix { $0 != nil }.compactMap { $0 }
        #expect(dated == dated.sorted() && dates.dropFirst(dated.count).allSatisfy { $0 == nil })
        #expect(items.allSatisfy { $0["primary_type"] is String && $0["secondary_types"] is [String] })
        #expect(items.contains { ($0["secondary_types"] as? [String])?.contains("Live") == true && $0["section"] as? String == "other" })
        #expect(server.requests(path: "/ws/2/release-group").count == 3)

        // Offline (nothing listens on port 9): the cache answers, identically.
        let again = try await cli.run(["artist", "--mbid", Self.artistID, "--json"],
                                      extraEnvironment: Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2"))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == result.stdout)

        let text = try await cli.run(["artist", "--mbid", Self.artistID], extraEnvironment: Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2"))
        #expect(text.status == 0)
        #expect(text.stdout.contains("Albums\n") && text.stdout.contains("EPs\n") && text.stdout.contains("Live, compilations and more\n"))
        #expect(text.stdout.contains("undated"))

        // By name, offline: the one cached artist with that name answers from the library.
        let byName = try await cli.run(["artist", "Sunn O)))", "--json"], extraEnvironment: Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2"))
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout == result.stdout)
        #expect(server.requests(path: "/ws/2/artist").isEmpty)
        // Another name is not guessed from the cache: it needs the search (and says so offline).
        let other = try await cli.run(["artist", "Sunn"], extraEnvironment: Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2"))
        #expect(other.status != 0)
        #expect(!other.stdout.contains("Sunn O)))"))
    }

    @Test func anAmbiguousNameListsTheNamesakesWithScoresAndAsksForAnId() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.nirvanaSearch)])
        let cli = try CLIRunner()
        let environment = Self.environment(musicBrainz: server.url("/ws/2").absoluteString)

        let result = try await cli.run(["artist", "Nirvana"], extraEnvironment: environment)

        #expect(result.status == 2)
        #expect(result.stdout.contains("--mbid"))
        #expect(result.stdout.contains("100\t\(MusicBrainzArtistFixtures.nirvanaUS)\tNirvana — Group, US, 1987–1994 (90s US grunge band)"))
        #expect(result.stdout.contains("100\t\(MusicBrainzArtistFixtures.nirvanaUK)\tNirvana — Group, GB, from 1967 (60s band from the UK)"))
        #expect(server.requests(path: "/ws/2/release-group").isEmpty)

        let json = try await cli.run(["artist", "Nirvana", "--json"], extraEnvironment: environment)
        #expect(json.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ambiguous"] as? Bool == true)
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(candidates.prefix(2).compactMap { $0["id"] as? String } == [MusicBrainzArtistFixtures.nirvanaUS, MusicBrainzArtistFixtures.nirvanaUK])
        #expect(candidates.allSatisfy { $0["score"] is Int })
    }

    @Test(arguments: [
        (["artist"], "Give the artist's name"),
        (["artist", "Nirvana", "--mbid", "5b11f4ce-a62d-471e-81fc-a69a8278c7da"], "not both"),
        (["artist", "--mbid", "../etc/passwd"], "not a MusicBrainz identifier"),
        (["artist", "   "], "Give the artist's name"),
    ])
    func badArgumentsAreRefusedWithAReason(_ arguments: [String], _ reason: String) async throws {
        let result = try await CLIRunner().run(arguments, extraEnvironment: Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2"))
        #expect(result.status != 0)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test func anUnknownNameSaysSo() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/artist", responses: [.json(MusicBrainzArtistFixtures.emptySearch)])
        let result = try await CLIRunner().run(["artist", "Nobody At All"], extraEnvironment: Self.environment(musicBrainz: server.url("/ws/2").absoluteString))
        #expect(result.status == 1)
        #expect(result.stderr.contains("MusicBrainz knows no artist called “Nobody At All”."))
    }

    @Test func genresAreListedAsTextAndJSON() async throws {
        let cli = try CLIRunner()
        let environment = Self.environment(musicBrainz: "http://127.0.0.1:9/ws/2")
        let text = try await cli.run(["genres"], extraEnvironment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Rock [rock]: rock\n"))
        #expect(text.stdout.contains("  Drum & Bass [drum-and-bass]: drum and bass, liquid funk, neurofunk, drum & bass, drum n bass, dnb\n"))

        let json = try await cli.run(["genres", "--json"], extraEnvironment: environment)
        #expect(json.status == 0)
        let genres = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect((12...20).contains(genres.count))
        #expect(genres.allSatisfy { ($0["subcategories"] as? [[String: Any]])?.isEmpty == false })

    }
}
