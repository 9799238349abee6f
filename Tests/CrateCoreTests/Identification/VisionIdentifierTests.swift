import Foundation
import Testing
@testable import CrateCore

@Suite("Vision identifier (tiers 1 and 2)")
struct VisionIdentifierTests {
    static let rumours = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":"Warner Bros.","readable_text":"FLEETWOOD MAC RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.95}"#
    static let unsure = #"{"artist":"","album":"","year":null,"label":null,"readable_text":"KRAUTWERK ZWEI","text_confidence":"high","search_needed":true,"confidence":0.1}"#
    static let found = #"{"artist":"Krautwerk","album":"Zwei","year":2025,"label":"Bureau B","readable_text":"KRAUTWERK ZWEI","text_confidence":"high","search_needed":false,"confidence":0.9}"#

    func identifier(_ http: ScriptedHTTPClient, advancedSearch: Bool = true, log: DiagnosticLog = .silent) -> VisionIdentifier {
        VisionIdentifier(
            provider: ProviderFactory.makeDirect(kind: .anthropic, key: "k", model: "claude-test", http: http)!,
            prompts: PromptLibrary.locate(environment: [:]),
            advancedSearch: advancedSearch, log: log
        )
    }

    @Test func callOneAnswersWithoutSearch() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: Self.rumours)])
        let outcome = try await identifier(http).identify(jpeg: .fakeJPEG)
        guard case .identified(let id) = outcome else { Issue.record("not identified"); return }
        #expect(id.tier == .vision)
        #expect(id.tier.method == .vision)
        #expect(id.answer.album == "Rumours")
        #expect(http.requests.count == 1)
        #expect(http.bodies[0]["tools"] == nil)
        let system = http.bodies[0]["system"] as? String
        #expect(system == (try PromptLibrary.locate(environment: [:]).prompt(PromptLibrary.identify).text))
    }

    @Test func gateOpenRunsCallTwoWithSearchAndTheImage() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: Self.unsure), Wire.anthropic(text: Self.found)])
        let outcome = try await identifier(http).identify(jpeg: .fakeJPEG)
        guard case .identified(let id) = outcome else { Issue.record("not identified"); return }
        #expect(id.tier == .visionSearch)
        #expect(id.tier.rawValue == "vision+search")
        #expect(id.answer.artist == "Krautwerk")
        #expect(id.answer.year == "2025")
        #expect(http.requests.count == 2)
        #expect(http.bodies[0]["tools"] == nil)
        #expect((http.bodies[1]["tools"] as? [[String: Any]])?.first?["name"] as? String == "web_search")
        let content = (http.bodies[1]["messages"] as? [[String: Any]])?.first?["content"] as? [[String: Any]]
        #expect(content?.first?["type"] as? String == "image")
        #expect((content?.last?["text"] as? String)?.contains("KRAUTWERK ZWEI") == true)
    }

    @Test func gateClosedWithoutAdvancedSearchIsNotIdentified() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: Self.unsure)])
        let outcome = try await identifier(http, advancedSearch: false).identify(jpeg: .fakeJPEG)
        guard case .notIdentified(let last) = outcome else { Issue.record("identified?"); return }
        #expect(last?.readableText == "KRAUTWERK ZWEI")
        #expect(http.requests.count == 1)
    }

    @Test func callTwoFailingKeepsAnIdentifiedFirstAnswer() async throws {
        let first = #"{"artist":"Krautwerk","album":"Zwei","year":null,"label":null,"readable_text":"KRAUTWERK ZWEI","text_confidence":"medium","search_needed":true,"confidence":0.5}"#
        let http = ScriptedHTTPClient([Wire.anthropic(text: first), Wire.anthropicError(status: 500, type: "api_error", message: "boom")])
        let log = LogCollector()
        let outcome = try await identifier(http, log: log.sink).identify(jpeg: .fakeJPEG)
        guard case .identified(let id) = outcome else { Issue.record("not identified"); return }
        #expect(id.tier == .vision)
        #expect(http.requests.count == 2)
        #expect(log.lines.contains { $0.contains("ID call 2 failed") })
    }

    @Test func wrongKeyIsReportedAsSuchNotAsUnableToIdentify() async throws {
        let http = ScriptedHTTPClient([Wire.anthropicError(status: 401, type: "authentication_error", message: "invalid x-api-key")])
        do {
            _ = try await identifier(http).identify(jpeg: .fakeJPEG)
            Issue.record("expected an error")
        } catch let error as IdentificationError {
            #expect(error == .provider(.invalidKey(.anthropic, status: 401)))
            #expect(error.message != IdentificationError.unableToIdentify)
            #expect(error.message.contains("Settings"))
        }
    }

    @Test func proseInsteadOfJSONIsUnableToIdentify() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: "That looks like a record.")])
        await #expect(throws: IdentificationError.unreadableAnswer) {
            try await identifier(http).identify(jpeg: .fakeJPEG)
        }
    }

    @Test func providerWithoutSearchSkipsCallTwo() async throws {
        let http = ScriptedHTTPClient([Wire.openAI(content: Self.unsure)])
        let vision = VisionIdentifier(
            provider: ProviderFactory.makeDirect(kind: .ollama, key: nil, model: "llava", endpoint: Endpoints.defaults.ollama, http: http)!,
            prompts: PromptLibrary.locate(environment: [:]), advancedSearch: true, log: .silent
        )
        let outcome = try await vision.identify(jpeg: .fakeJPEG)
        #expect(outcome == .notIdentified(lastAnswer: try IdentificationAnswer.parse(Self.unsure)))
        #expect(http.requests.count == 1)
    }
}
