import Foundation

/// One provider call, for the usage meter (calls and tokens per month). Never holds a key, a
/// prompt or an answer: only what the call was and what it cost.
public struct UsageRecord: Identifiable, Equatable, Sendable {
    public var id: Int64?
    public var at: Date
    public var provider: String
    public var model: String
    public var purpose: LLMPurpose
    public var inputTokens: Int?
    public var outputTokens: Int?
    public var durationMs: Int
    public var success: Bool
    public var usedSearch: Bool
    /// `ProviderError.code` when the call failed (e.g. `rate_limited`), never a message.
    public var errorCode: String?

    public init(id: Int64? = nil, at: Date, provider: String, model: String, purpose: LLMPurpose, inputTokens: Int?, outputTokens: Int?, durationMs: Int, success: Bool, usedSearch: Bool, errorCode: String? = nil) {
        self.id = id
        self.at = at
        self.provider = provider
        self.model = model
        self.purpose = purpose
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.durationMs = durationMs
        self.success = success
        self.usedSearch = usedSearch
        self.errorCode = errorCode
    }
}
