import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate genre", .tags(.process))
struct GenreCommandTests {
    struct FeedOutput: Decodable {
        struct Item: Decodable {
            let signal: String
            let musicbrainz_release_group_id: String
        }
        let genre: String
        let subcategories: [String]
        let dial: String
        let items: [Item]
    }

    @Test func aGenreFeedWithTwoSubcategoriesPrintsJSON() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        GenreWorld.install(on: server)

        let result = try await cli.run(["genre", "rock", "--sub", "post-rock", "--sub", "Shoegaze", "--dial", "mystery", "--count", "30", "--json"],
                                       extraEnvironment: WallCommandTests.environment(server))

        #expect(result.status == 0, "\(result.stderr)")
        let feed = try JSONDecoder().decode(FeedOutput.self, from: Data(result.stdout.utf8))
        #expect(feed.genre == "rock" && feed.subcategories == ["post-rock", "shoegaze"] && feed.dial == "mystery")
        #expect(feed.items.count == 30)
        #expect(Set(feed.items.map(\.musicbrainz_release_group_id)).count == 30)
        #expect(Set(feed.items.map(\.signal)).isSubset(of: Set(GenreSignal.allCases.map(\.rawValue))))
        let fresh = server.requests(path: "/ws/2/release-group").compactMap { $0.queryItem("query") }.filter { $0.contains("firstreleasedate:") }
        #expect(fresh.count == 2)
    }

    /// `crate genres` lists "Post-Rock [post-rock]": `crate genre post-rock` is Rock's feed with
    /// that subcategory picked.
    @Test func aSubcategoryNamedAsTheGenreIsItsGenresFeed() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        GenreWorld.install(on: server)

        let result = try await cli.run(["genre", "post-rock", "--count", "30", "--json"], extraEnvironment: WallCommandTests.environment(server))
        #expect(result.status == 0, "\(result.stderr)")
        let feed = try JSONDecoder().decode(FeedOutput.self, from: Data(result.stdout.utf8))
        #expect(feed.genre == "rock" && feed.subcategories == ["post-rock"])
        #expect(!feed.items.isEmpty)
    }

    @Test func anUnknownGenreOrSubcategoryIsRefusedWithoutAnyRequest() async throws {
        let cli = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        GenreWorld.install(on: server)

        let genre = try await cli.run(["genre", "polka-core"], extraEnvironment: WallCommandTests.environment(server))
        #expect(genre.status == 1)
        #expect(genre.stderr.contains("There is no genre called \"polka-core\""))
        let sub = try await cli.run(["genre", "rock", "--sub", "bebop"], extraEnvironment: WallCommandTests.environment(server))
        #expect(sub.status == 1)
        #expect(sub.stderr.contains("Rock has no subcategory called \"bebop\""))
        let count = try await cli.run(["genre", "rock", "--count", "0"], extraEnvironment: WallCommandTests.environment(server))
        #expect(count.status != 0)
        #expect(server.requests.isEmpty)
    }
}
