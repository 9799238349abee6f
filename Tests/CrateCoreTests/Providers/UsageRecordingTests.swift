import Foundation
import GRDB
import Testing
@testable import CrateCore

@Suite("Usage recording")
struct UsageRecordingTests {
    @Test func migrationV3CreatesTheUsageTableAfterV1() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.reader.read { try $0.tableExists("usage") })
        let known = AppDatabase.knownMigrations
        let v1 = try #require(known.firstIndex(of: "v1"))
        let v3 = try #require(known.firstIndex(of: "v3-usage"))
        #expect(v1 < v3)
    }

    @Test func everyCallIsRecordedWithTokensDurationAndOutcome() async throws {
        let db = try AppDatabase.inMemory()
        let http = ScriptedHTTPClient([
            Wire.anthropic(text: "{}"),
            Wire.anthropicError(status: 529, type: "overloaded_error", message: "Overloaded"),
        ])
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        let provider = UsageRecordingProvider(ProviderFactory.makeDirect(kind: .anthropic, key: "k", model: "claude-test", http: http)!, database: db, clock: { at })

        _ = try await provider.complete(LLMRequest(system: "S", user: "U", jpeg: .fakeJPEG, purpose: .identify))
        await #expect(throws: ProviderError.overloaded) {
            try await provider.complete(LLMRequest(system: "S", user: "U", useSearch: true, purpose: .review))
        }

        let records = try db.usageRecords()
        #expect(records.count == 2)
        let success = try #require(records.first { $0.success })
        #expect(success.provider == "anthropic")
        #expect(success.model == "claude-test", "recorded (and priced) as the model Crate asked for, not the one the reply names")
        #expect(success.purpose == .identify)
        #expect(success.inputTokens == 1650)
        #expect(success.outputTokens == 240)
        #expect(success.durationMs >= 0)
        #expect(success.at == at)
        let failure = try #require(records.first { !$0.success })
        #expect(failure.purpose == .review)
        #expect(failure.errorCode == "overloaded")
        #expect(failure.usedSearch)
        #expect(failure.inputTokens == nil)

        let totals = try db.usageTotals(since: at)
        #expect(totals == .init(calls: 2, failedCalls: 1, inputTokens: 1650, outputTokens: 240))
    }
}

@Suite("Prompt library")
struct PromptLibraryTests {
    @Test func thePackagePromptsLoad() throws {
        let library = PromptLibrary.locate(environment: [:])
        for name in [PromptLibrary.identify, PromptLibrary.identifySearch, PromptLibrary.review] {
            let prompt = try library.prompt(name)
            #expect(prompt.version == name)
            #expect(prompt.text.contains("JSON"), "OpenAI's JSON mode needs the word in the prompt")
        }
    }

    @Test func reviewPromptListsEveryLabelAndTheRules() throws {
        let text = try PromptLibrary.locate(environment: [:]).prompt(PromptLibrary.review).text
        #expect(RecommendationTiers.allLabels.count == 24)
        for label in RecommendationTiers.allLabels {
            #expect(text.contains(label), "missing \(label)")
        }
        for key in ["context_summary", "context_bullets", "rating", "recommendation", "key_tracks"] {
            #expect(text.contains(key))
        }
        #expect(text.contains("Never money"))
        #expect(text.contains("never lower"))
    }

    @Test func identificationPromptsNameExactlyTheOutputKeys() throws {
        let library = PromptLibrary.locate(environment: [:])
        for name in [PromptLibrary.identify, PromptLibrary.identifySearch] {
            let text = try library.prompt(name).text
            for key in ["artist", "album", "year", "label", "readable_text", "text_confidence", "search_needed", "confidence"] {
                #expect(text.contains("\"\(key)\""), "\(name) lacks \(key)")
            }
        }
    }

    @Test func crateDataFilesOverridesAndMissingFilesAreReported() throws {
        let dir = try TemporaryDirectory()
        let prompts = dir.url.appendingPathComponent("prompts")
        try FileManager.default.createDirectory(at: prompts, withIntermediateDirectories: true)
        try Data("custom review".utf8).write(to: prompts.appendingPathComponent("review-v1.md"))
        let library = PromptLibrary.locate(environment: ["CRATE_DATA_FILES": dir.url.path])
        #expect(library.directory?.standardizedFileURL.path == prompts.standardizedFileURL.path)
        #expect(try library.prompt("review-v1").text == "custom review")
        #expect(throws: PromptLibrary.Failure.notFound("identify-v1")) { try library.prompt("identify-v1") }
        #expect(throws: PromptLibrary.Failure.notFound("review-v1")) { try PromptLibrary(directory: nil).prompt("review-v1") }
    }
}
