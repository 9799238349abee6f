import Foundation

/// Why a provider call is made; recorded with every call for the usage meter.
public enum LLMPurpose: String, Codable, Sendable, CaseIterable {
    case identify
    case review
}

/// One request to a language model: a system instruction kept apart from the user content.
public struct LLMRequest: Sendable, Equatable {
    /// The system instruction (a versioned prompt file).
    public let system: String
    /// The user message: data for the model, never instructions from the user.
    public let user: String
    /// An optional JPEG (the prepared 1024 px cover photo). Only identification sends one.
    public let jpeg: Data?
    /// Ask for a web-search-grounded answer. Providers without search make a plain call.
    public let useSearch: Bool
    public let purpose: LLMPurpose
    public let maxOutputTokens: Int

    public init(system: String, user: String, jpeg: Data? = nil, useSearch: Bool = false, purpose: LLMPurpose, maxOutputTokens: Int = 1500) {
        self.system = system
        self.user = user
        self.jpeg = jpeg
        self.useSearch = useSearch
        self.purpose = purpose
        self.maxOutputTokens = maxOutputTokens
    }
}

/// Token counts, when the provider reports them.
public struct TokenUsage: Sendable, Equatable {
    public let input: Int?
    public let output: Int?

    public init(input: Int?, output: Int?) {
        self.input = input
        self.output = output
    }

    public static let unknown = TokenUsage(input: nil, output: nil)

    /// The most one call can sensibly read and write: more (or less than 0) is a broken or
    /// hostile reply, never a bill. Counts outside are clamped to these bounds.
    public static let maxInput = 2_000_000
    public static let maxOutput = 200_000

    /// The counts within `0...maxInput` and `0...maxOutput`.
    public var clamped: TokenUsage {
        TokenUsage(input: input.map { min(max($0, 0), Self.maxInput) }, output: output.map { min(max($0, 0), Self.maxOutput) })
    }

    /// True when a count was outside the bounds.
    public var isOutOfBounds: Bool { clamped != self }
}

/// A model's answer: the text blocks joined, the model that answered, and what it cost.
public struct LLMResponse: Sendable, Equatable {
    public let text: String
    public let model: String
    public let usage: TokenUsage
    /// True when the call really carried a search tool (false for providers without search).
    public let usedSearch: Bool

    public init(text: String, model: String, usage: TokenUsage, usedSearch: Bool) {
        self.text = text
        self.model = model
        self.usage = usage
        self.usedSearch = usedSearch
    }
}

/// A language-model backend (Anthropic, an OpenAI-compatible server, …). One implementation per
/// backend, in its own folder; every implementation speaks through the injected `HTTPClient`.
public protocol LLMProvider: Sendable {
    /// Which configured provider this is (recorded with reviews and usage).
    var kind: ProviderKind { get }
    /// The model asked for; the response names the model that actually answered.
    var model: String { get }
    /// Whether `useSearch` really grounds the answer with a web search.
    var supportsSearch: Bool { get }

    func complete(_ request: LLMRequest) async throws -> LLMResponse
}

/// The same providers read covers (tiers 1 and 2) and write reviews.
public typealias VisionProvider = LLMProvider
