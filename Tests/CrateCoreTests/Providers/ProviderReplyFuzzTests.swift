import Foundation
import Testing
@testable import CrateCore

/// Seeded fuzzing of the provider reply parsers (Anthropic, OpenAI-compatible as OpenAI and as
/// Ollama), in the spirit of the libFuzzer harnesses in `Sources/Fuzz` but deterministic and
/// quick enough for every test run: real reply shapes, then truncated, byte-flipped, invalid
/// UTF-8, deeply nested, huge and wrongly typed versions of them. Every input must give either a
/// reply or a `ProviderError` (never a crash, never an untyped error), and the user's message for
/// the error must be one of Crate's own sentences.
@Suite("Provider reply fuzzing")
struct ProviderReplyFuzzTests {
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

    static let anthropicReply = #"{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"rumours"}},{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]},{"type":"text","text":"{\"artist\":\"Fleetwood Mac\",\"album\":\"Rumours\",\"confidence\":0.9}"}],"stop_reason":"end_turn","usage":{"input_tokens":1200,"output_tokens":80}}"#
    static let openAIReply = #"{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":"{\"artist\":\"Fleetwood Mac\",\"album\":\"Rumours\"}","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":900,"completion_tokens":40,"total_tokens":940}}"#
    static let ollamaReply = #"{"id":"chatcmpl-7","object":"chat.completion","created":1730000000,"model":"llama3.2-vision","system_fingerprint":"fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"```json\n{\"artist\":\"Sunn O)))\"}\n```"},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":12,"total_tokens":32}}"#
    static let errorBodies = [
        #"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
        #"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
        #"{"error":"model \"llama3.2-vision\" not found, try pulling it first"}"#,
        #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
    ]

    /// Replies whose values have the wrong JSON types (or none) in every place the parsers read.
    static let wrongTypes = [
        #"{"content":"text","usage":[1,2]}"#, #"{"content":[1,"a",null,{"type":7,"text":[]}],"stop_reason":5}"#,
        #"{"content":[{"type":"text","text":{"nested":true}}],"usage":{"input_tokens":"12","output_tokens":1e300}}"#,
        #"{"content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":-1e308,"output_tokens":9223372036854775808}}"#,
        #"{"choices":"none"}"#, #"{"choices":[]}"#, #"{"choices":[null]}"#, #"{"choices":[{"message":"hi"}]}"#,
        #"{"choices":[{"message":{"content":42,"refusal":false}}]}"#, #"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":1.5e19}}"#,
        #"{"choices":[{"message":{"content":"x"},"finish_reason":["stop"]}],"model":{"name":"m"}}"#,
        "[]", "null", "true", "0", "\"text\"", "{}", "", " ", "{\"a\":1}{\"b\":2}", "\u{FEFF}{}",
    ]

    enum Parser: CaseIterable { case anthropic, openAI, ollama }

    static let openAI = ProviderFactory.makeDirect(kind: .openai, key: "sk-fuzz-secret", model: "gpt-4o",
                                                 endpoint: URL(string: "http://127.0.0.1:9")!, http: NoHTTP()) as! OpenAICompatibleProvider
    static let ollama = ProviderFactory.makeDirect(kind: .ollama, key: nil, model: "llama3.2-vision",
                                                 endpoint: URL(string: "http://127.0.0.1:9")!, http: NoHTTP()) as! OpenAICompatibleProvider

    /// Parses `body` as a 2xx reply; returns a description of what went wrong, or nil.
    static func parse(_ body: Data, with parser: Parser) -> String? {
        do {
            let reply: LLMResponse
            switch parser {
            case .anthropic: reply = try AnthropicProvider.parse(body, requestedModel: "claude-test", usedSearch: false)
            case .openAI: reply = try openAI.parse(body)
            case .ollama: reply = try ollama.parse(body)
            }
            // A reply always carries some text.
            return reply.text.isEmpty ? "empty reply accepted" : nil
        } catch let error as ProviderError {
            return check(error)
        } catch {
            return "untyped error \(type(of: error))"
        }
    }

    /// Maps `body` with `status` as a failed call; returns a description of what went wrong, or nil.
    static func failure(_ body: Data, status: Int, with parser: Parser) -> String? {
        let response = HTTPResponse(status: status, headers: ["Retry-After": "7"], body: body, url: URL(string: "http://127.0.0.1:9")!)
        let error: ProviderError
        switch parser {
        case .anthropic: error = AnthropicProvider.error(for: response, secret: "sk-fuzz-secret")
        case .openAI: error = openAI.error(for: response)
        case .ollama: error = ollama.error(for: response)
        }
        return check(error)
    }

    static func check(_ error: ProviderError) -> String? {
        let text = UserMessage.text(for: error)
        if text.isEmpty { return "empty user message for \(error)" }
        if text.contains("sk-fuzz-secret") || "\(error)".contains("sk-fuzz-secret") { return "the key leaked: \(error)" }
        return nil
    }

    static func mutate(_ seed: [UInt8], _ g: inout SplitMix) -> [UInt8] {
        var bytes = seed
        switch g.next() % 8 {
        case 0:  // Truncated anywhere.
            bytes = Array(bytes.prefix(Int(g.next() % UInt64(bytes.count + 1))))
        case 1:  // A few bytes overwritten with anything.
            for _ in 0..<(1 + Int(g.next() % 4)) where !bytes.isEmpty {
                bytes[Int(g.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: g.next())
            }
        case 2:  // Invalid UTF-8 inside a string or between tokens.
            let bad: [[UInt8]] = [[0xFF], [0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x00]]
            let at = Int(g.next() % UInt64(bytes.count + 1))
            bytes.insert(contentsOf: bad[Int(g.next() % UInt64(bad.count))], at: at)
        case 3:  // A structural byte swapped for another.
            let structural: [UInt8] = Array("{}[]\":,".utf8)
            for _ in 0..<(1 + Int(g.next() % 3)) where !bytes.isEmpty {
                bytes[Int(g.next() % UInt64(bytes.count))] = structural[Int(g.next() % UInt64(structural.count))]
            }
        case 4:  // A slice duplicated (repeated keys, runs of values).
            guard bytes.count > 2 else { break }
            let a = Int(g.next() % UInt64(bytes.count)), b = min(bytes.count, a + 1 + Int(g.next() % 64))
            bytes.insert(contentsOf: bytes[a..<b], at: Int(g.next() % UInt64(bytes.count + 1)))
        case 5:  // A slice deleted.
            guard bytes.count > 2 else { break }
            let a = Int(g.next() % UInt64(bytes.count)), b = min(bytes.count, a + 1 + Int(g.next() % 64))
            bytes.removeSubrange(a..<b)
        case 6:  // A number in place of a digit run, of any size.
            let numbers = ["-0", "1e400", "-1e400", "1.7976931348623157e308", "9223372036854775808", "NaN", "0x10", "1e-400"]
            if let digit = bytes.firstIndex(where: { (0x30...0x39).contains($0) }) {
                bytes.replaceSubrange(digit...digit, with: Array(numbers[Int(g.next() % UInt64(numbers.count))].utf8))
            }
        default:  // Two mutations.
            bytes = mutate(mutate(bytes, &g), &g)
        }
        return bytes
    }

    @Test func mutatedRepliesGiveAReplyOrATypedError() {
        var g = SplitMix(state: 0x1505)
        let seeds = ([Self.anthropicReply, Self.openAIReply, Self.ollamaReply] + Self.errorBodies + Self.wrongTypes).map { Array($0.utf8) }
        var problems: [String] = []
        var replies = 0, errors = 0
        for round in 0..<4000 {
            let seed = seeds[round % seeds.count]
            let body = Data(round < seeds.count ? seed : Self.mutate(seed, &g))
            for parser in Parser.allCases {
                if let problem = Self.parse(body, with: parser) { problems.append("\(parser) #\(round): \(problem)") }
                if (try? parseReply(body, parser)) != nil { replies += 1 } else { errors += 1 }
            }
            let status = [400, 401, 404, 413, 429, 500, 503, 529, 418][round % 9]
            for parser in Parser.allCases {
                if let problem = Self.failure(body, status: status, with: parser) { problems.append("\(parser) \(status) #\(round): \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        // The corpus really exercises both outcomes (the unmutated seeds alone parse).
        #expect(replies >= 3 && errors > 1000, "replies \(replies), errors \(errors)")
    }

    private func parseReply(_ body: Data, _ parser: Parser) throws -> LLMResponse {
        switch parser {
        case .anthropic: return try AnthropicProvider.parse(body, requestedModel: "m", usedSearch: false)
        case .openAI: return try Self.openAI.parse(body)
        case .ollama: return try Self.ollama.parse(body)
        }
    }

    @Test(arguments: Parser.allCases)
    func deeplyNestedRepliesAreRejected(_ parser: Parser) {
        for depth in [64, 512, 5_000, 100_000] {
            for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
                let nested = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
                for body in [nested, #"{"content":"# + nested + "}", #"{"choices":[{"message":{"content":"# + nested + "}}]}",
                             String(repeating: open, count: depth)] {
                    #expect(Self.parse(Data(body.utf8), with: parser) == nil, "depth \(depth)")
                    #expect(Self.failure(Data(body.utf8), status: 500, with: parser) == nil, "depth \(depth)")
                }
            }
        }
    }

    @Test(arguments: Parser.allCases)
    func hugeRepliesGiveAReplyOrATypedError(_ parser: Parser) throws {
        let long = String(repeating: "Rumours ", count: 500_000)  // 4 MB of text.
        let many = Array(repeating: #"{"type":"text","text":"x"}"#, count: 100_000).joined(separator: ",")
        let bodies = [
            #"{"content":[{"type":"text","text":""# + long + #""}],"choices":[{"message":{"content":""# + long + #""}}]}"#,
            #"{"content":["# + many + #"],"choices":["# + many + "]}",
            #"{"error":{"type":""# + long + #"","message":""# + long + #""}}"#,
            #"{"content":""# + long,  // Truncated inside the huge string.
        ]
        for body in bodies {
            #expect(Self.parse(Data(body.utf8), with: parser) == nil)
            #expect(Self.failure(Data(body.utf8), status: 400, with: parser) == nil)
        }
        // The whole huge text comes through when the reply is well formed.
        let reply = try parseReply(Data(bodies[0].utf8), parser)
        #expect(reply.text.count == long.count - 1)
    }

    @Test func numbersNoIntHoldsAreDroppedNotTrapped() {
        #expect(ProviderHTTP.int(1e300) == nil)
        #expect(ProviderHTTP.int(-Double.infinity) == nil)
        #expect(ProviderHTTP.int(Double.nan) == nil)
        #expect(ProviderHTTP.int(NSNumber(value: 1e300)) == nil)
        #expect(ProviderHTTP.int(12.9) == 12)
        #expect(ProviderHTTP.int(NSNumber(value: 40)) == 40)
        #expect(ProviderHTTP.int("12") == nil)
    }
}

/// Parsers are called directly; nothing here may touch the network.
private struct NoHTTP: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw HTTPError.transport("no network in fuzz tests") }
}
