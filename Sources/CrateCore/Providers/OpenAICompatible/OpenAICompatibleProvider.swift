import Foundation

/// Any OpenAI-compatible chat completions server (`POST {base}/v1/chat/completions`):
/// OpenAI itself, a local Ollama, llama.cpp's server, LM Studio. No web search: a
/// search-grounded request becomes a plain call and says so in `usedSearch`.
public final class OpenAICompatibleProvider: LLMProvider {
    public static let defaultOpenAIModel = "gpt-4o"
    public static let defaultOllamaModel = "llama3.2-vision"

    public let kind: ProviderKind
    public let model: String
    public let supportsSearch = false
    private let baseURL: URL
    private let apiKey: String?
    private let http: any HTTPClient

    /// - Parameter apiKey: sent as a Bearer token; nil sends none (Ollama ignores it anyway).
    public init(kind: ProviderKind, apiKey: String?, model: String, baseURL: URL, http: any HTTPClient) {
        self.kind = kind
        self.apiKey = apiKey
        self.model = model
        self.baseURL = baseURL
        self.http = http
    }

    public func complete(_ request: LLMRequest) async throws -> LLMResponse {
        let httpRequest = try makeHTTPRequest(request)
        let response = try await ProviderHTTP.send(httpRequest, via: http, secret: apiKey)
        guard (200..<300).contains(response.status) else {
            throw error(for: response)
        }
        return try parse(response.body)
    }

    /// The HTTP request for one call (internal so tests can check its shape).
    func makeHTTPRequest(_ request: LLMRequest) throws -> HTTPRequest {
        let userContent: Any
        if let jpeg = request.jpeg {
            // Ollama's OpenAI endpoint needs the data: prefix and refuses http(s) image URLs.
            userContent = [
                ["type": "text", "text": request.user],
                ["type": "image_url", "image_url": ["url": "data:image/jpeg;base64," + jpeg.base64EncodedString()]],
            ] as [[String: Any]]
        } else {
            userContent = request.user
        }
        let body: [String: Any] = [
            "model": model,
            "max_tokens": request.maxOutputTokens,
            "messages": [
                ["role": "system", "content": request.system],
                ["role": "user", "content": userContent],
            ],
            // Every Crate prompt asks for JSON (and contains the word, which this mode requires).
            "response_format": ["type": "json_object"],
        ]
        var headers = ["content-type": "application/json"]
        if let apiKey { headers["authorization"] = "Bearer \(apiKey)" }
        return HTTPRequest(
            method: "POST",
            url: ProviderHTTP.url(baseURL, "v1/chat/completions"),
            headers: headers,
            body: try ProviderHTTP.jsonBody(body),
            timeout: ProviderHTTP.timeout,
            maxBodyBytes: ProviderHTTP.maxBodyBytes
        )
    }

    func parse(_ body: Data) throws -> LLMResponse {
        let object = try ProviderHTTP.jsonObject(body)
        guard let choice = (object["choices"] as? [[String: Any]])?.first else { throw ProviderError.emptyResponse }
        let message = choice["message"] as? [String: Any]
        if let refusal = message?["refusal"] as? String, !refusal.isEmpty { throw ProviderError.refusal }
        if (choice["finish_reason"] as? String) == "content_filter" { throw ProviderError.refusal }
        let text = ((message?["content"] as? String) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ProviderError.emptyResponse }
        let usage = object["usage"] as? [String: Any]
        return LLMResponse(
            text: text,
            model: (object["model"] as? String) ?? model,
            usage: TokenUsage(input: ProviderHTTP.int(usage?["prompt_tokens"]), output: ProviderHTTP.int(usage?["completion_tokens"])),
            usedSearch: false
        )
    }

    func error(for response: HTTPResponse) -> ProviderError {
        let (type, message) = ProviderHTTP.errorDetails(response.body)
        switch response.status {
        case 401, 403:
            return .invalidKey(kind, status: response.status)
        case 429:
            // `insufficient_quota` is a billing state, `rate_limit_exceeded` a moment.
            if type == "insufficient_quota" || (message ?? "").lowercased().contains("quota") {
                return .quotaExhausted(kind)
            }
            return .rateLimited(retryAfter: ProviderHTTP.retryAfter(response))
        case 503, 529:
            return .overloaded
        case 500...599:
            return .serverError(status: response.status)
        default:
            let detail = ProviderHTTP.scrub(message ?? type ?? "no details", secret: apiKey)
            return .badResponse("HTTP \(response.status): \(detail)")
        }
    }
}
