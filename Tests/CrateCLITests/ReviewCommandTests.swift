import CrateCore
import Foundation
import CrateTestSupport
import Testing

@Suite("crate review", .tags(.process))
struct ReviewCommandTests {
    @Test func cachedReviewIsPrintedAsJSONForTheDeluxeTitle() async throws {
        let cli = try CLIRunner()
        do {
            let db = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
            try db.saveReview(Review(
                key: ReviewKey.make(artist: "Fleetwood Mac", title: "Rumours"),
                summary: "Immaculate soft rock from a band in pieces.", bullets: ["a", "b", "c"], rating: 9.6,
                recommendation: "Essential Classic", tier: 1, keyTracks: ["Dreams", "The Chain", "Songbird"],
                provider: "anthropic", model: "claude-test", promptVersion: "review-v1", usedSearch: false
            ))
        }
        let result = try await cli.run(["review", "--artist", "Fleetwood Mac", "--title", "Rumours (Super Deluxe Edition) [2013 Remaster]", "--year", "2013", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["cached"] as? Bool == true)
        #expect(object["tier"] as? Int == 1)
        #expect(object["recommendation"] as? String == "Essential Classic")
        #expect(object["prompt_version"] as? String == "review-v1")
        #expect(object["used_search"] as? Bool == false)
        #expect((object["key_tracks"] as? [String])?.count == 3)

        let text = try await cli.run(["review", "--artist", "fleetwood mac", "--title", "RUMOURS"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ESSENTIAL CLASSIC  9.6/10"))
    }

    @Test func invalidInputExitsOne() async throws {
        let result = try await CLIRunner().run(["review", "--artist", " ", "--title", "Rumours"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("artist"))
        let year = try await CLIRunner().run(["review", "--artist", "A", "--title", "T", "--year", "77"])
        #expect(year.status == 1)
        #expect(year.stderr.contains("release year"))
    }

    @Test func noProviderPointsToSettings() async throws {
        let result = try await CLIRunner().run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue", "--json"], extraEnvironment: ["CRATE_PROVIDER": "none"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "unavailable")
        #expect(object["settings"] as? Bool == true)
        #expect(result.stderr.contains("Settings"))
    }

    @Test func reviewsThroughTheProviderAndCachesTheResult() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview))])
        let cli = try CLIRunner()
        let environment = ["CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-test", "CRATE_PROVIDER_URL": server.baseURL.absoluteString]
        let result = try await cli.run(["review", "--artist", "Fleetwood Mac", "--title", "Rumours", "--year", "1977", "--json"], extraEnvironment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["recommendation"] as? String == "Essential Classic")
        #expect(object["tier"] as? Int == 1)
        #expect(object["cached"] as? Bool == false)
        #expect(object["prompt_version"] as? String == "review-v1")
        #expect(server.requests(path: "/v1/messages").first?.headers["x-api-key"] == "sk-test")

        // The deluxe reissue hits the cache: no second provider call.
        let again = try await cli.run(["review", "--artist", "Fleetwood Mac", "--title", "Rumours (Super Deluxe Edition) [2013 Remaster]", "--json"], extraEnvironment: environment)
        let cached = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(cached["cached"] as? Bool == true)
        #expect(server.requests(path: "/v1/messages").count == 1)
    }

    @Test func aRejectedKeyIsClearAndNeverPrinted() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(ProviderFixtures.anthropicAuthError, status: 401)])
        let canary = "sk-ant-CANARY-\(UUID().uuidString)"
        let result = try await CLIRunner().run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue"], extraEnvironment: [
            "CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": canary, "CRATE_PROVIDER_URL": server.baseURL.absoluteString,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Settings") || result.stderr.contains("Preferences"))
        #expect(!result.stdout.contains(canary) && !result.stderr.contains(canary))
    }
}
