import Foundation
import Testing
@testable import CrateCore

/// docs/reliability.md #11 and #14 in miniature: mangled model output never crashes a parser, and whatever
/// parses is valid.
@Suite("Parser robustness")
struct ParserRobustnessTests {
    /// A deterministic generator so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func mutations(of seed: String, count: Int) -> [String] {
        var rng = SplitMix(state: 42)
        let alphabet = Array("{}[]\":,0123456789.-eE ntrufalse\\\n`€$")
        return (0..<count).map { _ in
            var chars = Array(seed)
            for _ in 0..<Int.random(in: 1...6, using: &rng) where !chars.isEmpty {
                let i = Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars.remove(at: i)
                case 1: chars.insert(alphabet.randomElement(using: &rng)!, at: i)
                default: chars[i] = alphabet.randomElement(using: &rng)!
                }
            }
            return String(chars)
        }
    }

    @Test func mangledReviewsAreRepairedOrRejected() {
        for text in Self.mutations(of: ReviewFixture.json(), count: 3000) {
            if let draft = try? ReviewDraft.parse(text) {
                #expect((0...10).contains(draft.rating))
                #expect(ReviewDraft.bulletRange.contains(draft.bullets.count))
                #expect(RecommendationTiers.match(draft.recommendation)?.tier == draft.tier)
                #expect(ReviewDraft.keyTrackRange.contains(draft.keyTracks.count))
            }
        }
    }

    @Test func mangledIdentificationsParseOrFail() {
        let seed = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":null,"readable_text":"RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.9}"#
        for text in Self.mutations(of: seed, count: 3000) {
            if let answer = try? IdentificationAnswer.parse(text) {
                #expect((0...1).contains(answer.confidence))
            }
        }
    }

    @Test func aHostileBodyOfBracesIsCheap() {
        let text = String(repeating: "{", count: 200_000)
        let start = Date()
        #expect(throws: LenientJSON.Failure.noJSONObject) { try LenientJSON.object(in: text) }
        // A justified upper bound: a quadratic scan of 200 000 braces takes minutes, a linear one
        // milliseconds; 60 s is far from both, so only the quadratic one can fail it.
        #expect(Date().timeIntervalSince(start) < 60)
    }
}
