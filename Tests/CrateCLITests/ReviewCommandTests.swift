import CrateCore
import Foundation
import Testing

@Suite("crate review")
struct ReviewCommandTests {
    @Test func cachedReviewIsPrintedAsJSONForTheDeluxeTitle() throws {
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
        let result = try cli.run(["review", "--artist", "Fleetwood Mac", "--title", "Rumours (Super Deluxe Edition) [2013 Remaster]", "--year", "2013", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["cached"] as? Bool == true)
        #expect(object["tier"] as? Int == 1)
        #expect(object["recommendation"] as? String == "Essential Classic")
        #expect(object["prompt_version"] as? String == "review-v1")
        #expect(object["used_search"] as? Bool == false)
        #expect((object["key_tracks"] as? [String])?.count == 3)

        let text = try cli.run(["review", "--artist", "fleetwood mac", "--title", "RUMOURS"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ESSENTIAL CLASSIC  9.6/10"))
    }

    @Test func invalidInputExitsOne() throws {
        let result = try CLIRunner().run(["review", "--artist", " ", "--title", "Rumours"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("artist"))
        let year = try CLIRunner().run(["review", "--artist", "A", "--title", "T", "--year", "77"])
        #expect(year.status == 1)
        #expect(year.stderr.contains("release year"))
    }

    @Test func noProviderPointsToSettings() throws {
        let result = try CLIRunner().run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue", "--json"], extraEnvironment: ["CRATE_PROVIDER": "none"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "unavailable")
        #expect(object["settings"] as? Bool == true)
        #expect(result.stderr.contains("Settings"))
    }

    @Test func withoutANetworkClientTheFailureIsClearAndKeyFree() throws {
        let canary = "sk-ant-CANARY-\(UUID().uuidString)"
        let result = try CLIRunner().run(["review", "--artist", "Miles Davis", "--title", "Kind of Blue"], extraEnvironment: ["CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": canary])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Review Temporarily Unavailable"))
        #expect(result.stderr.contains("network client not available"))
        #expect(!result.stdout.contains(canary) && !result.stderr.contains(canary))
    }
}
