import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// The review's bad answers over real HTTP: the provider is a loopback `FixtureServer` speaking
/// the Anthropic and OpenAI-compatible wire shapes, reached through libcurl (`CurlHTTPClient`),
/// so status lines, headers (Retry-After) and bodies go through the same code as in the app.
/// Each bad answer must give the right typed error and a message in Crate's own words.
@Suite("Review bad answers over loopback")
struct ReviewLoopbackTests {
    enum Wire: CaseIterable { case anthropic, openAI, ollama }

    /// A ReviewService whose provider answers from `server` with `responses` in order.
    struct Harness {
        let server: FixtureServer
        let database: AppDatabase
        let service: ReviewService
        let path: String

        init(_ wire: Wire, _ responses: [FixtureResponse]) throws {
            server = try FixtureServer()
            database = try AppDatabase.inMemory()
            let provider: any LLMProvider
            switch wire {
            case .anthropic:
                path = "/anthropic/v1/messages"
                provider = ProviderFactory.makeDirect(kind: .anthropic, key: "sk-ant-loopback-secret", model: "claude-test",
                                             endpoint: server.url("/anthropic"), http: CurlHTTPClient())!
            case .openAI:
                path = "/openai/v1/chat/completions"
                provider = ProviderFactory.makeDirect(kind: .openai, key: "sk-loopback-secret", model: "gpt-4o",
                                                    endpoint: server.url("/openai"), http: CurlHTTPClient())!
            case .ollama:
                path = "/ollama/v1/chat/completions"
                provider = ProviderFactory.makeDirect(kind: .ollama, key: nil, model: "llama3.2-vision",
                                                    endpoint: server.url("/ollama"), http: CurlHTTPClient())!
            }
            server.route(path, responses: responses)
            service = ReviewService(provider: UsageRecordingProvider(provider, database: database, log: .silent),
                                    database: database, prompts: PromptLibrary.locate(environment: [:]),
                                    advancedSearch: false, log: .silent, clock: { ReviewHarness.fixedDate })
        }

        /// Runs a review expected to fail; the error, its user message, and how many calls it took.
        func failure() async throws -> (error: ReviewError?, text: String, calls: Int) {
            defer { server.stop() }
            do {
                _ = try await service.review(for: try ReviewHarness.rumours(), regenerate: false)
                return (nil, "", server.requests(path: path).count)
            } catch let error as ReviewError {
                return (error, UserMessage.text(for: error), server.requests(path: path).count)
            } catch {
                Issue.record("untyped error \(type(of: error)): \(error)")
                return (nil, "", server.requests(path: path).count)
            }
        }
    }

    /// A successful reply carrying `text`, in the wire's own shape.
    static func reply(_ wire: Wire, _ text: String) -> FixtureResponse {
        switch wire {
        case .anthropic:
            return .json(ProviderFixtures.anthropicMessage(text))
        case .openAI, .ollama:
            let object: [String: Any] = [
                "id": "chatcmpl-loopback", "object": "chat.completion", "model": wire == .openAI ? "gpt-4o-2024-08-06" : "llama3.2-vision",
                "choices": [["index": 0, "message": ["role": "assistant", "content": text], "finish_reason": "stop"]],
                "usage": ["prompt_tokens": 900, "completion_tokens": 300],
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return .json(String(decoding: data, as: UTF8.self))
        }
    }

    /// Raw server text that must never reach the user.
    static let leaks = ["sk-ant-loopback-secret", "sk-loopback-secret", "{\"id\"", "HTTP/1.1", "slow down", "Traceback", "curl"]

    static func expectOwnWords(_ text: String, _ comment: Comment) {
        #expect(!text.isEmpty, comment)
        for leak in leaks { #expect(!text.contains(leak), "\(comment): \(text)") }
    }

    @Test(arguments: Wire.allCases)
    func malformedJSONIsABadResponse(_ wire: Wire) async throws {
        for body in [#"{"content":[{"type":"text","text":"#, "<html><body>502 Bad Gateway</body></html>", "", "\u{FF}\u{FE}garbage"] {
            let (error, text, calls) = try await Harness(wire, [.json(body)]).failure()
            guard case .provider(.badResponse)? = error else { Issue.record("\(wire) \(body.prefix(20)): \(String(describing: error))"); continue }
            #expect(calls == 1)
            #expect(error?.title == ReviewError.unavailableTitle)
            Self.expectOwnWords(text, "\(wire)")
            #expect(!text.contains("502 Bad Gateway"))
        }
    }

    @Test(arguments: Wire.allCases)
    func aReplyThatIsNotAReviewIsInvalidOutput(_ wire: Wire) async throws {
        // The transport and envelope are fine; the model's text is not review JSON.
        let (error, text, _) = try await Harness(wire, [Self.reply(wire, "Sure! Rumours is a great album.")]).failure()
        guard case .invalidOutput? = error else { Issue.record("\(wire): \(String(describing: error))"); return }
        Self.expectOwnWords(text, "\(wire)")
        #expect(!text.contains("Sure!"))
    }

    @Test(arguments: Wire.allCases)
    func refusalIsARefusal(_ wire: Wire) async throws {
        let response: FixtureResponse
        switch wire {
        case .anthropic:
            response = .json(#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"I can't help with that."}],"stop_reason":"refusal","usage":{"input_tokens":10,"output_tokens":5}}"#)
        case .openAI, .ollama:
            response = .json(#"{"id":"c","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#)
        }
        let (error, text, calls) = try await Harness(wire, [response]).failure()
        #expect(error == .provider(.refusal), "\(wire)")
        #expect(calls == 1)
        Self.expectOwnWords(text, "\(wire)")
        #expect(!text.contains("I can't help with that"))
    }

    @Test(arguments: Wire.allCases)
    func emptyContentIsAnEmptyResponse(_ wire: Wire) async throws {
        let bodies: [String]
        switch wire {
        case .anthropic:
            bodies = [#"{"id":"m","type":"message","model":"claude-test","content":[],"stop_reason":"end_turn"}"#,
                      ProviderFixtures.anthropicMessage("   \n ")]
        case .openAI, .ollama:
            bodies = [#"{"id":"c","model":"m","choices":[]}"#,
                      #"{"id":"c","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}"#]
        }
        for body in bodies {
            let (error, text, _) = try await Harness(wire, [.json(body)]).failure()
            #expect(error == .provider(.emptyResponse), "\(wire) \(body.prefix(40))")
            #expect(error?.title == ReviewError.unavailableTitle)
            Self.expectOwnWords(text, "\(wire)")
        }
    }

    @Test(arguments: Wire.allCases)
    func rateLimitedCarriesRetryAfterFromTheHeader(_ wire: Wire) async throws {
        let body = wire == .anthropic
            ? #"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#
            : #"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#
        let (error, text, calls) = try await Harness(wire, [.json(body, status: 429, headers: [("Retry-After", "30")])]).failure()
        #expect(error == .provider(.rateLimited(retryAfter: 30)), "\(wire)")
        #expect(calls == 1, "retrying is the retry layer's job")
        #expect(error?.tip == ReviewError.retryTip)
        Self.expectOwnWords(text, "\(wire)")
    }

    @Test(arguments: Wire.allCases)
    func quotaIsNotARateLimit(_ wire: Wire) async throws {
        let body = wire == .anthropic
            ? #"{"type":"error","error":{"type":"rate_limit_error","message":"Your credit balance is too low"}}"#
            : #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#
        let (error, text, _) = try await Harness(wire, [.json(body, status: 429, headers: [("Retry-After", "30")])]).failure()
        let kind: ProviderKind = wire == .anthropic ? .anthropic : wire == .openAI ? .openai : .ollama
        #expect(error == .provider(.quotaExhausted(kind)), "\(wire)")
        #expect(error?.needsSettings == true)
        Self.expectOwnWords(text, "\(wire)")
    }

    @Test(arguments: Wire.allCases)
    func serverErrorIsAServerError(_ wire: Wire) async throws {
        let (error, text, calls) = try await Harness(wire, [.text("Traceback (most recent call last): boom", status: 500)]).failure()
        #expect(error == .provider(.serverError(status: 500)), "\(wire)")
        #expect(calls == 1)
        #expect(error?.tip == ReviewError.retryTip)
        Self.expectOwnWords(text, "\(wire)")
    }

    @Test(arguments: Wire.allCases)
    func persistentMoneyTalkFailsAfterOneRegeneration(_ wire: Wire) async throws {
        let money = ReviewFixture.bullets.prefix(2) + ["Original pressings sell for $300 on the collectors' market"]
        let answer = Self.reply(wire, ReviewFixture.json(bullets: Array(money)))
        let harness = try Harness(wire, [answer, answer])
        let (error, text, calls) = try await harness.failure()
        #expect(error == .invalidOutput(.moneyTalk), "\(wire)")
        #expect(calls == 2, "one regeneration with the reminder")
        #expect(try harness.database.counts().reviews == 0)
        Self.expectOwnWords(text, "\(wire)")
        #expect(!text.contains("$300"))
    }

    @Test(arguments: Wire.allCases)
    func moneyTalkOnceIsRegeneratedAndStoredClean(_ wire: Wire) async throws {
        let money = ReviewFixture.bullets.prefix(3) + ["Original pressings sell for $300"]
        let harness = try Harness(wire, [Self.reply(wire, ReviewFixture.json(bullets: Array(money))),
                                         Self.reply(wire, ReviewFixture.json())])
        defer { harness.server.stop() }
        let review = try await harness.service.review(for: try ReviewHarness.rumours()).review
        #expect(review.bullets == ReviewFixture.bullets)
        #expect(!review.bullets.contains { MoneyFilter.flags($0) })
        let requests = harness.server.requests(path: harness.path)
        #expect(requests.count == 2)
        #expect(try harness.database.counts().reviews == 1)
    }
}
