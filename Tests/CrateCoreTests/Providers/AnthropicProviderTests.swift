import Foundation
import Testing
@testable import CrateCore

@Suite("Anthropic provider")
struct AnthropicProviderTests {
    let base = URL(string: "http://127.0.0.1:9/anthropic")!

    func provider(_ http: ScriptedHTTPClient, key: String = "sk-ant-test") -> AnthropicProvider {
        ProviderFactory.makeDirect(kind: .anthropic, key: key, model: "claude-test", endpoint: base, http: http) as! AnthropicProvider
    }

    @Test func requestCarriesHeadersSystemImageBlockAndNoToolsWithoutSearch() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: "{}")])
        _ = try await provider(http).complete(LLMRequest(system: "SYSTEM", user: "USER", jpeg: .fakeJPEG, purpose: .identify, maxOutputTokens: 600))

        let request = try #require(http.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/anthropic/v1/messages")
        #expect(request.headers["x-api-key"] == "sk-ant-test")
        #expect(request.headers["anthropic-version"] == "2023-06-01")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.timeout >= 60)
        #expect(request.maxBodyBytes <= 8 << 20)

        let body = try #require(http.bodies.first)
        #expect(body["model"] as? String == "claude-test")
        #expect(body["system"] as? String == "SYSTEM")
        #expect(ProviderHTTP.int(body["max_tokens"]) == 600)
        #expect(body["tools"] == nil)
        let messages = try #require(body["messages"] as? [[String: Any]])
        #expect(messages.count == 1)
        #expect(messages[0]["role"] as? String == "user")
        let content = try #require(messages[0]["content"] as? [[String: Any]])
        #expect(content.map { $0["type"] as? String } == ["image", "text"])
        let source = try #require(content[0]["source"] as? [String: Any])
        #expect(source["type"] as? String == "base64")
        #expect(source["media_type"] as? String == "image/jpeg")
        #expect(source["data"] as? String == Data.fakeJPEG.base64EncodedString())
        #expect(content[1]["text"] as? String == "USER")
    }

    @Test func searchAddsTheWebSearchToolAndALongerTimeout() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: "{}")])
        let response = try await provider(http).complete(LLMRequest(system: "S", user: "U", useSearch: true, purpose: .review))
        #expect(response.usedSearch)
        let tools = try #require(http.bodies.first?["tools"] as? [[String: Any]])
        #expect(tools.count == 1)
        #expect(tools[0]["type"] as? String == "web_search_20250305")
        #expect(tools[0]["name"] as? String == "web_search")
        #expect(ProviderHTTP.int(tools[0]["max_uses"]) == 5)
        #expect(try #require(http.requests.first).timeout > ProviderHTTP.timeout)
        // No image: a review never sends one.
        let content = (http.bodies.first?["messages"] as? [[String: Any]])?.first?["content"] as? [[String: Any]]
        #expect(content?.map { $0["type"] as? String } == ["text"])
    }

    @Test func textBlocksAreJoinedAndSearchBlocksIgnored() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(blocks: [
            ["type": "text", "text": "Let me search."],
            ["type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": ["query": "rumours review"]],
            ["type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [["type": "web_search_result", "url": "https://example.org", "title": "t"]]],
            ["type": "text", "text": " {\"a\": 1}", "citations": [["type": "web_search_result_location", "url": "https://example.org"]]],
        ])])
        let response = try await provider(http).complete(LLMRequest(system: "S", user: "U", useSearch: true, purpose: .review))
        #expect(response.text == "Let me search. {\"a\": 1}")
        #expect(response.model == "claude-sonnet-4-5-20250929")
        #expect(response.usage == TokenUsage(input: 1650, output: 240))
    }

    @Test func emptyContentArrayIsEmptyResponse() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(blocks: [])])
        await #expect(throws: ProviderError.emptyResponse) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func refusalStopReasonIsRefusal() async throws {
        let http = ScriptedHTTPClient([Wire.anthropic(text: "I can't help with that.", stopReason: "refusal")])
        await #expect(throws: ProviderError.refusal) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func status529IsOverloadedAndTransient() async throws {
        let http = ScriptedHTTPClient([Wire.anthropicError(status: 529, type: "overloaded_error", message: "Overloaded")])
        await #expect(throws: ProviderError.overloaded) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
        #expect(ProviderError.overloaded.isTransient)
    }

    @Test func status429SurfacesRetryAfter() async throws {
        let http = ScriptedHTTPClient([Wire.anthropicError(status: 429, type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit", headers: ["Retry-After": "17"])])
        await #expect(throws: ProviderError.rateLimited(retryAfter: 17)) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func spendLimit429IsNotTransient() async throws {
        let http = ScriptedHTTPClient([Wire.anthropicError(status: 429, type: "rate_limit_error", message: "You have reached your specified API usage limits (spend limit).")])
        do {
            _ = try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
            Issue.record("expected an error")
        } catch let error as ProviderError {
            #expect(error == .quotaExhausted(.anthropic))
            #expect(!error.isTransient)
        }
    }

    @Test func status401IsInvalidKeyPointingToSettings() async throws {
        let http = ScriptedHTTPClient([Wire.anthropicError(status: 401, type: "authentication_error", message: "invalid x-api-key")])
        do {
            _ = try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
            Issue.record("expected an error")
        } catch let error as ProviderError {
            #expect(error == .invalidKey(.anthropic, status: 401))
            #expect(error.needsSettings)
            #expect(error.message.contains("Settings"))
            #expect(error.message.contains("ANTHROPIC_API_KEY"))
        }
    }

    @Test func transportFailureIsTransport() async throws {
        let http = ScriptedHTTPClient([.fail(.timedOut)])
        await #expect(throws: ProviderError.transport("the request timed out")) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func malformedBodyIsBadResponse() async throws {
        let http = ScriptedHTTPClient([.respond(status: 200, headers: [:], body: Data("<html>oops".utf8))])
        await #expect(throws: ProviderError.badResponse("the body is not a JSON object")) {
            try await provider(http).complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }
}
