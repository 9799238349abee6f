import Foundation
import Testing
@testable import CrateCore

@Suite("ReviewService")
struct ReviewServiceTests {
    @Test func endToEndReviewIsGeneratedStoredAndRendered() async throws {
        // Given
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json())])
        // When
        let result = try await harness.service.review(for: try ReviewHarness.rumours())
        // Then
        #expect(!result.cached)
        let review = result.review
        #expect(review.key == "fleetwood mac|rumours")
        #expect(review.recommendation == "Essential Classic")
        #expect(review.tier == 1)
        #expect(review.rating == 9.6)
        #expect(review.provider == "anthropic")
        #expect(review.model == "claude-sonnet-4-5-20250929")
        #expect(review.promptVersion == "review-v1")
        #expect(!review.usedSearch)
        #expect(review.generatedAt == ReviewHarness.fixedDate)
        #expect(try harness.database.review(key: review.key) == review)

        // The system instruction is the prompt file; the user message is the metadata block only.
        let body = try #require(harness.http.bodies.first)
        #expect(body["system"] as? String == (try PromptLibrary.locate(environment: [:]).prompt("review-v1").text))
        #expect(body["tools"] == nil, "1977 is before the search cut-off")
        #expect(harness.userText(0) == ReviewService.userMessage(for: try ReviewHarness.rumours()))
        let usage = try harness.database.usageRecords()
        #expect(usage.count == 1)
        #expect(usage.first?.purpose == .review)

        let json = ReviewJSON.render(ReviewJSON.object(result))
        print("End-to-end review JSON (fake HTTP → AnthropicProvider → ReviewService):\n\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for key in ["context_summary", "context_bullets", "rating", "recommendation", "key_tracks", "tier", "cached", "prompt_version", "used_search"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(json.contains("\"rating\" : 9.6"))
    }

    @Test func fencedAnswerIsRepaired() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: "```json\n\(ReviewFixture.json())\n```")])
        #expect(try await harness.service.review(for: try ReviewHarness.rumours()).review.tier == 1)
    }

    @Test func sentenceBeforeAndAfterIsRepaired() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: "Here you go!\n\(ReviewFixture.json())\nEnjoy the record.")])
        #expect(try await harness.service.review(for: try ReviewHarness.rumours()).review.rating == 9.6)
    }

    @Test func ratingAsStringIsCoerced() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json(rating: "8.5"))])
        #expect(try await harness.service.review(for: try ReviewHarness.rumours()).review.rating == 8.5)
    }

    @Test func ratingElevenFailsWithTheUnavailableStateAndStoresNothing() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json(rating: 11))])
        let error = await harness.failure(try ReviewHarness.rumours())
        #expect(error == .invalidOutput(.ratingOutOfRange(11)))
        #expect(error?.title == "Review Temporarily Unavailable")
        #expect(error?.tip == "Tip: scan this album again (or press Regenerate) to retry generating the review.")
        #expect(try harness.database.counts().reviews == 0)
    }

    @Test func lowerCaseLabelIsCanonicalised() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json(recommendation: "essential classic"))])
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(review.recommendation == "Essential Classic")
        #expect(review.tier == 1)
    }

    @Test func unknownLabelFails() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json(recommendation: "Masterpiece"))])
        #expect(await harness.failure(try ReviewHarness.rumours()) == .invalidOutput(.unknownRecommendation("Masterpiece")))
    }

    @Test func twoBulletsFail() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json(bullets: Array(ReviewFixture.bullets.prefix(2))))])
        #expect(await harness.failure(try ReviewHarness.rumours()) == .invalidOutput(.tooFewBullets(2)))
    }

    @Test func moneyBulletTriggersOneRegenerationWithAReminder() async throws {
        let money = ReviewFixture.bullets.prefix(3) + ["Original pressings sell for $300"]
        let harness = try ReviewHarness([
            Wire.anthropic(text: ReviewFixture.json(bullets: Array(money))),
            Wire.anthropic(text: ReviewFixture.json()),
        ])
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(review.bullets == ReviewFixture.bullets)
        #expect(harness.http.requests.count == 2)
        #expect(harness.userText(1)?.contains(MoneyFilter.reminder) == true)
        #expect(harness.userText(0)?.contains(MoneyFilter.reminder) == false)
    }

    @Test func persistentMoneyBulletIsDroppedWhenThreeRemain() async throws {
        let money = ReviewFixture.bullets.prefix(3) + ["Original pressings sell for $300"]
        let answer = Wire.anthropic(text: ReviewFixture.json(bullets: Array(money)))
        let harness = try ReviewHarness([answer, answer])
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(review.bullets == Array(ReviewFixture.bullets.prefix(3)))
        #expect(!review.bullets.contains { MoneyFilter.flags($0) })
        #expect(harness.http.requests.count == 2)
    }

    // Malformed JSON, refusals, empty content, 429 with Retry-After, 500 and persistent money talk
    // go through the loopback server: ReviewLoopbackTests.

    @Test func overloaded529Fails() async throws {
        let harness = try ReviewHarness([Wire.anthropicError(status: 529, type: "overloaded_error", message: "Overloaded")])
        let error = await harness.failure(try ReviewHarness.rumours())
        #expect(error == .provider(.overloaded))
        #expect(error?.tip == ReviewError.retryTip)
    }

    @Test func wrongKeySaysSoAndPointsToSettings() async throws {
        let harness = try ReviewHarness([Wire.anthropicError(status: 401, type: "authentication_error", message: "invalid x-api-key")])
        let error = try #require(await harness.failure(try ReviewHarness.rumours()))
        #expect(error == .provider(.invalidKey(.anthropic, status: 401)))
        #expect(error.needsSettings)
        #expect(error.title != ReviewError.unavailableTitle)
        #expect(error.tip == nil)
        #expect(error.message.contains("API key") && error.message.contains("Settings"))
    }

    @Test func missingKeySaysSo() async throws {
        let database = try AppDatabase.inMemory()
        let service = ReviewService(provider: UnavailableProvider(kind: .anthropic, model: "m", reason: .missingKey(.anthropic)), database: database, prompts: .locate(environment: [:]), advancedSearch: false, log: .silent)
        do {
            _ = try await service.review(for: try ReviewHarness.rumours())
            Issue.record("expected an error")
        } catch let error as ReviewError {
            #expect(error.title == "API Key Missing")
            #expect(error.message.contains("Settings"))
        }
    }

    @Test func searchGroundedFailureIsRetriedOnceWithoutSearch() async throws {
        let harness = try ReviewHarness([
            Wire.anthropicError(status: 400, type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum"),
            Wire.anthropic(text: ReviewFixture.json()),
        ], advancedSearch: true)
        let input = try ReviewInput(artist: "Fleetwood Mac", title: "Rumours", year: "2025")
        let review = try await harness.service.review(for: input).review
        #expect(harness.http.requests.count == 2)
        #expect(harness.http.bodies[0]["tools"] != nil)
        #expect(harness.http.bodies[1]["tools"] == nil)
        #expect(!review.usedSearch)
        #expect(harness.log.lines.contains { $0.contains("retrying without search") })
    }

    @Test func searchGroundingDependsOnYearAndTheSwitch() async throws {
        let answer = Wire.anthropic(text: ReviewFixture.json())
        let on = try ReviewHarness([answer, answer, answer], advancedSearch: true)
        let unknown = try await on.service.review(for: try ReviewInput(artist: "A", title: "Unknown Year"))
        #expect(unknown.review.usedSearch)
        _ = try await on.service.review(for: try ReviewInput(artist: "A", title: "New", year: "2024"))
        _ = try await on.service.review(for: try ReviewInput(artist: "A", title: "Old", year: "2023"))
        #expect(on.http.bodies.map { $0["tools"] != nil } == [true, true, false])

        let off = try ReviewHarness([answer], advancedSearch: false)
        _ = try await off.service.review(for: try ReviewInput(artist: "A", title: "New", year: "2025"))
        #expect(off.http.bodies.first?["tools"] == nil)
    }

    @Test func deluxeRemasterHitsTheCacheOfTheOriginal() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json())])
        let first = try await harness.service.review(for: try ReviewHarness.rumours())
        let second = try await harness.service.review(for: try ReviewHarness.rumours("Rumours (Super Deluxe Edition) [2013 Remaster]", year: "2013"))
        #expect(!first.cached)
        #expect(second.cached)
        #expect(second.review == first.review)
        #expect(harness.http.requests.count == 1)
    }

    @Test func regenerateReplacesTheCachedReview() async throws {
        let harness = try ReviewHarness([
            Wire.anthropic(text: ReviewFixture.json()),
            Wire.anthropic(text: ReviewFixture.json(rating: 9.0, recommendation: "Genre Landmark")),
        ])
        _ = try await harness.service.review(for: try ReviewHarness.rumours())
        let again = try await harness.service.review(for: try ReviewHarness.rumours(), regenerate: true)
        #expect(!again.cached)
        #expect(again.review.recommendation == "Genre Landmark")
        #expect(try harness.database.review(key: "fleetwood mac|rumours")?.rating == 9.0)
        #expect(try harness.database.counts().reviews == 1)
    }

    @Test func withoutAProviderCachedReviewsStillShow() async throws {
        let harness = try ReviewHarness([Wire.anthropic(text: ReviewFixture.json())])
        _ = try await harness.service.review(for: try ReviewHarness.rumours())
        let offline = ReviewService(provider: nil, database: harness.database, prompts: .locate(environment: [:]), advancedSearch: false, log: .silent)
        #expect(try await offline.review(for: try ReviewHarness.rumours("RUMOURS (Deluxe)")).cached)
        do {
            _ = try await offline.review(for: try ReviewInput(artist: "Miles Davis", title: "Kind of Blue"))
            Issue.record("expected an error")
        } catch let error as ReviewError {
            #expect(error == .noProvider)
            #expect(error.needsSettings)
        }
    }

    @Test func unavailableJSONCarriesTheSeedWording() {
        let object = ReviewJSON.unavailable(.provider(.overloaded))
        #expect(object["status"] as? String == "unavailable")
        #expect(object["title"] as? String == "Review Temporarily Unavailable")
        #expect(object["tip"] as? String == "Tip: scan this album again (or press Regenerate) to retry generating the review.")
    }
}
