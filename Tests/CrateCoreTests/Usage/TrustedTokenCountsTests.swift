import Foundation
import Synchronization
import Testing
@testable import CrateCore

@Suite("Token counts and model names from the provider")
struct TrustedTokenCountsTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Bug: token counts and the model name in a reply were trusted. Negative counts gave a cost
    /// of −$300 000 and "0 % used"; INT64_MAX gave "3320413927267719 % used" and blocked scans
    /// for the month; a reply naming another model was "not priced", so free. Counts are now
    /// clamped to what one call can have, the call is priced as the model Crate asked for, and
    /// the odd reply is logged.
    @Test("Out-of-range counts are clamped and the requested model is priced", arguments: [
        (Int.min, Int.min, "claude-sonnet-4-5"),
        (-100_000_000_000, -1, "claude-sonnet-4-5"),
        (Int.max, Int.max, "claude-sonnet-4-5"),
        (1_000, 200, "gpt-free-9000"),
        (1_000, 200, ""),
    ])
    func aBrokenReplyIsClampedAndPriced(input: Int, output: Int, repliedModel: String) async throws {
        let database = try AppDatabase.inMemory()
        let notes = Mutex<[String]>([])
        let provider = UsageRecordingProvider(
            ReplyingProvider(reply: LLMResponse(text: "{}", model: repliedModel, usage: TokenUsage(input: input, output: output), usedSearch: false)),
            database: database, log: DiagnosticLog { line in notes.withLock { $0.append(line) } }, clock: { Self.now })
        _ = try await provider.complete(LLMRequest(system: "s", user: "u", purpose: .identify))

        let meter = UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(cost: 100),
                               calendar: Self.utc, clock: { Self.now })
        let summary = try meter.summary()
        #expect(summary.models.map(\.model) == ["claude-sonnet-4-5"])
        #expect(summary.unpricedCalls == 0)
        // At most 2 M tokens in ($6) and 200 k out ($3) for one Sonnet call.
        #expect(summary.estimatedCost >= 0 && summary.estimatedCost <= 9.000_001)
        #expect(summary.status.fraction >= 0 && summary.status.fraction <= 0.09)
        #expect(summary.inputTokens >= 0 && summary.inputTokens <= TokenUsage.maxInput)
        #expect(summary.outputTokens >= 0 && summary.outputTokens <= TokenUsage.maxOutput)
        #expect(!notes.withLock { $0 }.isEmpty, "the odd reply is said")
    }

    @Test("A row stored from a broken reply before the clamp cannot overflow the month")
    func oldRowsAreClampedWhenSummed() throws {
        let database = try AppDatabase.inMemory()
        for _ in 0..<3 {
            try database.recordUsage(UsageRecord(at: Self.now, provider: "anthropic", model: "claude-sonnet-4-5", purpose: .identify,
                                                 inputTokens: Int.max, outputTokens: Int.min, durationMs: 1, success: true, usedSearch: false))
        }
        let meter = UsageMeter(database: database, prices: .init(table: .builtIn, source: "built in"), budget: UsageBudget(cost: 100),
                               calendar: Self.utc, clock: { Self.now })
        let summary = try meter.summary()
        #expect(summary.inputTokens == 3 * TokenUsage.maxInput)
        #expect(summary.outputTokens == 0)
        #expect(summary.status.level != .usedUp)
    }
}

private struct ReplyingProvider: LLMProvider {
    let reply: LLMResponse
    var kind: ProviderKind { .anthropic }
    var model: String { "claude-sonnet-4-5" }
    var supportsSearch: Bool { false }

    func complete(_ request: LLMRequest) async throws -> LLMResponse { reply }
}
