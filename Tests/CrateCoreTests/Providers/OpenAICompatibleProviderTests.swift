import Foundation
import Testing
@testable import CrateCore

@Suite("OpenAI-compatible provider")
struct OpenAICompatibleProviderTests {
    func openAI(_ http: ScriptedHTTPClient) -> OpenAICompatibleProvider {
        ProviderFactory.makeDirect(kind: .openai, key: "sk-test", model: "gpt-4o", endpoint: URL(string: "http://127.0.0.1:9/")!, http: http) as! OpenAICompatibleProvider
    }

    @Test func requestShapeHasBearerDataURLImageAndJSONMode() async throws {
        let http = ScriptedHTTPClient([Wire.openAI(content: "{\"x\":1}")])
        let response = try await openAI(http).complete(LLMRequest(system: "SYSTEM json", user: "USER", jpeg: .fakeJPEG, purpose: .identify))
        #expect(response.text == "{\"x\":1}")
        #expect(response.usage == TokenUsage(input: 900, output: 200))

        let request = try #require(http.requests.first)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer sk-test")
        #expect(request.timeout >= 60)
        let body = try #require(http.bodies.first)
        #expect((body["response_format"] as? [String: Any])?["type"] as? String == "json_object")
        let messages = try #require(body["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["system", "user"])
        #expect(messages[0]["content"] as? String == "SYSTEM json")
        let parts = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["text", "image_url"])
        let url = (parts[1]["image_url"] as? [String: Any])?["url"] as? String
        #expect(url == "data:image/jpeg;base64," + Data.fakeJPEG.base64EncodedString())
    }

    @Test func searchRequestIsAPlainCall() async throws {
        let http = ScriptedHTTPClient([Wire.openAI(content: "{}")])
        let response = try await openAI(http).complete(LLMRequest(system: "S", user: "U", useSearch: true, purpose: .review))
        #expect(!response.usedSearch)
        #expect(http.bodies.first?["tools"] == nil)
        #expect((http.bodies.first?["messages"] as? [[String: Any]])?[1]["content"] as? String == "U")
    }

    @Test func ollamaUsesItsLocalEndpoint() async throws {
        let http = ScriptedHTTPClient([Wire.openAI(content: "{}")])
        let ollama = ProviderFactory.makeDirect(kind: .ollama, key: nil, model: "llava", endpoint: Endpoints.defaults.ollama, http: http)!
        _ = try await ollama.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        #expect(http.requests.first?.url.absoluteString == "http://127.0.0.1:11434/v1/chat/completions")
        #expect(http.requests.first?.headers["authorization"] == nil)
    }

    @Test func insufficientQuotaIsNotTransientButRateLimitIs() async throws {
        let http = ScriptedHTTPClient([
            Wire.openAIError(status: 429, code: "insufficient_quota", message: "You exceeded your current quota"),
            Wire.openAIError(status: 429, code: "rate_limit_exceeded", message: "Rate limit reached", headers: ["retry-after-ms": "1500", "retry-after": "9"]),
        ])
        let provider = openAI(http)
        await #expect(throws: ProviderError.quotaExhausted(.openai)) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
        await #expect(throws: ProviderError.rateLimited(retryAfter: 1.5)) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func refusalAndEmptyContent() async throws {
        let http = ScriptedHTTPClient([Wire.openAI(content: nil, refusal: "I can't."), Wire.openAI(content: "  ")])
        let provider = openAI(http)
        await #expect(throws: ProviderError.refusal) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
        await #expect(throws: ProviderError.emptyResponse) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }

    @Test func ollamaErrorStringIsReadAndStatusesMapped() async throws {
        let http = ScriptedHTTPClient([
            .respond(status: 404, headers: [:], body: Data(#"{"error":"model \"llava\" not found, try pulling it first"}"#.utf8)),
            .respond(status: 401, headers: [:], body: Data()),
            .respond(status: 502, headers: [:], body: Data()),
        ])
        let provider = openAI(http)
        await #expect(throws: ProviderError.badResponse(#"HTTP 404: model "llava" not found, try pulling it first"#)) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
        await #expect(throws: ProviderError.invalidKey(.openai, status: 401)) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
        await #expect(throws: ProviderError.serverError(status: 502)) {
            try await provider.complete(LLMRequest(system: "S", user: "U", purpose: .review))
        }
    }
}

@Suite("Provider plumbing")
struct ProviderHTTPTests {
    func response(_ headers: [String: String]) -> HTTPResponse {
        HTTPResponse(status: 429, headers: headers, url: URL(string: "http://127.0.0.1")!)
    }

    @Test func retryAfterIsParsedAndClamped() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(ProviderHTTP.retryAfter(response(["Retry-After": "3"]), now: now) == 3)
        #expect(ProviderHTTP.retryAfter(response(["Retry-After": "-5"]), now: now) == 0)
        #expect(ProviderHTTP.retryAfter(response(["Retry-After": "99999"]), now: now) == 120)
        #expect(ProviderHTTP.retryAfter(response(["Retry-After": "soon"]), now: now) == nil)
        #expect(ProviderHTTP.retryAfter(response([:]), now: now) == nil)
        // 1_700_000_030 is Tue, 14 Nov 2023 22:13:50 GMT.
        #expect(ProviderHTTP.retryAfter(response(["Retry-After": "Tue, 14 Nov 2023 22:13:50 GMT"]), now: now) == 30)
    }

    @Test func scrubRemovesTheKeyAndBoundsLength() {
        let scrubbed = ProviderHTTP.scrub("bad key sk-secret-123 here\n" + String(repeating: "x", count: 500), secret: "sk-secret-123")
        #expect(!scrubbed.contains("sk-secret-123"))
        #expect(scrubbed.contains("[key]"))
        #expect(scrubbed.count <= 301)
    }

    @Test func factoryBuildsTheConfiguredProvider() throws {
        let dir = try TemporaryDirectory()
        let http = ScriptedHTTPClient()
        var settings = Settings()
        #expect(ProviderFactory.make(settings: settings, keys: KeyStore(paths: dir.paths, environment: [:]), http: http) == nil)

        settings.provider = .anthropic
        let missing = ProviderFactory.make(settings: settings, keys: KeyStore(paths: dir.paths, environment: [:]), http: http)
        #expect((missing as? UnavailableProvider)?.reason == .missingKey(.anthropic))

        settings.model = "claude-x"
        let keyed = ProviderFactory.make(settings: settings, keys: KeyStore(paths: dir.paths, environment: ["ANTHROPIC_API_KEY": "k"]), http: http)
        #expect((keyed as? SecretScrubbingProvider)?.base is AnthropicProvider, "answers are scrubbed of known secrets")
        #expect(keyed?.model == "claude-x")

        settings.provider = .ollama
        settings.model = nil
        let ollama = ProviderFactory.make(settings: settings, keys: KeyStore(paths: dir.paths, environment: [:]), http: http, usage: try AppDatabase.inMemory())
        #expect(ollama is UsageRecordingProvider)
        #expect(ollama?.kind == .ollama)
        #expect(ollama?.model == OpenAICompatibleProvider.defaultOllamaModel)
    }
}
