import Foundation
import Testing
@testable import CrateCore

/// The money guard reads every field the user will see, key tracks included: a price can reach
/// the screen as a track "note" as easily as in a bullet.
@Suite("Money guard: every field")
struct MoneyInEveryFieldTests {
    static let pricedTracks = ["Myth ($20 single)", "Dreams", "The Chain", "Songbird"]

    @Test func aPriceInAKeyTrackIsFlagged() throws {
        let draft = try ReviewDraft.parse(ReviewFixture.json(tracks: Self.pricedTracks))
        #expect(MoneyFilter.flags(draft))
    }

    @Test func aPricedKeyTrackTriggersTheRegeneration() async throws {
        let harness = try ReviewHarness([
            Wire.anthropic(text: ReviewFixture.json(tracks: Self.pricedTracks)),
            Wire.anthropic(text: ReviewFixture.json()),
        ])
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(harness.http.requests.count == 2)
        #expect(!review.keyTracks.contains { MoneyFilter.flags($0) })
    }

    @Test func aPersistentPricedKeyTrackIsDroppedWhenThreeRemain() async throws {
        let answer = Wire.anthropic(text: ReviewFixture.json(tracks: Self.pricedTracks))
        let harness = try ReviewHarness([answer, answer])
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(review.keyTracks == ["Dreams", "The Chain", "Songbird"])
    }

    @Test func persistentPricedKeyTracksWithTooFewCleanOnesFail() async throws {
        let answer = Wire.anthropic(text: ReviewFixture.json(tracks: ["Myth ($20 single)", "Dreams (sold for $300)", "The Chain", "Songbird"]))
        let harness = try ReviewHarness([answer, answer])
        #expect(await harness.failure(try ReviewHarness.rumours()) == .invalidOutput(.moneyTalk))
        #expect(try harness.database.counts().reviews == 0)
    }
}
