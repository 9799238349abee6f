import Foundation

/// Anthropic's Messages API (`POST {base}/v1/messages`), with the web search tool for
/// search-grounded calls.
public final class AnthropicProvider: LLMProvider {
    public static let defaultModel = "claude-sonnet-4-5"
    public static let apiVersion = "2023-06-01"
    /// The server-side web search tool; five searches are plenty for one album.
    static var webSearchTool: [String: Any] { ["type": "web_search_20250305", "name": "web_search", "max_uses": 5] }

    public let kind: ProviderKind = .anthropic
    public let model: String
    public let supportsSearch = true
    private let baseURL: URL
    private let apiKey: String
    private let http: any HTTPClient

    public init(apiKey: String, model: String = AnthropicProvider.defaultModel, baseURL: URL = Endpoints.defaults.anthropic, http: any HTTPClient) {
        self.apiKey = apiKey
        self.model = model
        self.baseURL = baseURL
        self.http = http
    }

    public func complete(_ request: LLMRequest) async throws -> LLMResponse {
        let httpRequest = try makeHTTPRequest(request)
        let response = try await ProviderHTTP.send(httpRequest, via: http, secret: apiKey)
        guard (200..<300).contains(response.status) else {
            throw AnthropicProvider.error(for: response, secret: apiKey)
        }
        return try AnthropicProvider.parse(response.body, requestedModel: model, usedSearch: request.useSearch)
    }

    /// The HTTP request for one call (internal so tests can check its shape).
    func makeHTTPRequest(_ request: LLMRequest) throws -> HTTPRequest {
        var content: [[String: Any]] = []
        if let jpeg = request.jpeg {
            content.append([
                "type": "image",
                "source": ["type": "base64", "media_type": "image/jpeg", "data": jpeg.base64EncodedString()],
            ])
        }
        content.append(["type": "text", "text": request.user])
        var body: [String: Any] = [
            "model": model,
            "max_tokens": request.maxOutputTokens,
            "system": request.system,
            "messages": [["role": "user", "content": content]],
        ]
        if request.useSearch {
            body["tools"] = [AnthropicProvider.webSearchTool]
        }
        return HTTPRequest(
            method: "POST",
            url: ProviderHTTP.url(baseURL, "v1/messages"),
            headers: [
                "x-api-key": apiKey,
                "anthropic-version": AnthropicProvider.apiVersion,
                "content-type": "application/json",
            ],
            body: try ProviderHTTP.jsonBody(body),
            timeout: request.useSearch ? ProviderHTTP.searchTimeout : ProviderHTTP.timeout,
            maxBodyBytes: ProviderHTTP.maxBodyBytes
        )
    }

    /// Text blocks joined in order; `server_tool_use` / `web_search_tool_result` blocks are skipped.
    static func parse(_ body: Data, requestedModel: String, usedSearch: Bool) throws -> LLMResponse {
        let object = try ProviderHTTP.jsonObject(body)
        if (object["stop_reason"] as? String) == "refusal" { throw ProviderError.refusal }
        let blocks = object["content"] as? [[String: Any]] ?? []
        let text = blocks
            .filter { ($0["type"] as? String) == "text" }
            .compactMap { $0["text"] as? String }
            .joined()
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ProviderError.emptyResponse }
        let usage = object["usage"] as? [String: Any]
        return LLMResponse(
            text: text,
            model: (object["model"] as? String) ?? requestedModel,
            usage: TokenUsage(input: ProviderHTTP.int(usage?["input_tokens"]), output: ProviderHTTP.int(usage?["output_tokens"])),
            usedSearch: usedSearch
        )
    }

    /// Maps a non-2xx answer to a typed error.
    static func error(for response: HTTPResponse, secret: String) -> ProviderError {
        let (type, message) = ProviderHTTP.errorDetails(response.body)
        let lowered = (message ?? "").lowercased()
        // Spend limits and an empty credit balance are not fixed by waiting.
        let quota = ["spend limit", "credit balance", "billing", "quota"].contains { lowered.contains($0) }
        switch response.status {
        case 401, 403:
            return .invalidKey(.anthropic, status: response.status)
        case 429:
            return quota ? .quotaExhausted(.anthropic) : .rateLimited(retryAfter: ProviderHTTP.retryAfter(response))
        case 529:
            return .overloaded
        case 400 where quota:
            return .quotaExhausted(.anthropic)
        case 500...599:
            return type == "overloaded_error" ? .overloaded : .serverError(status: response.status)
        default:
            let detail = ProviderHTTP.scrub(message ?? type ?? "no details", secret: secret)
            return .badResponse("HTTP \(response.status): \(detail)")
        }
    }
}
