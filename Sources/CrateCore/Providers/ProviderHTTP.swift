import Foundation

/// Plumbing shared by the provider implementations: sending, status mapping, error bodies,
/// Retry-After, and scrubbing secrets out of anything that may end up in a message.
enum ProviderHTTP {
    /// LLM calls are slow (a search-grounded review can take a minute); metadata calls are not.
    static let timeout: TimeInterval = 90
    static let searchTimeout: TimeInterval = 120
    /// A chat answer is a few KB; anything near this is a misbehaving server.
    static let maxBodyBytes = 4 << 20
    /// Retry-After values are clamped to this range (docs/reliability.md #7).
    static let maxRetryAfter: TimeInterval = 120

    /// Sends, turning transport failures into `ProviderError.transport` with a key-free message.
    static func send(_ request: HTTPRequest, via http: any HTTPClient, secret: String?) async throws -> HTTPResponse {
        do {
            return try await http.send(request)
        } catch let error as HTTPError {
            switch error {
            case .bodyTooLarge, .invalidRequest, .invalidURL, .tooManyRedirects, .redirectRefused:
                // The provider was reached (or the request never left): not "check the connection".
                throw ProviderError.badResponse(scrub(describe(error), secret: secret))
            case .connectionLost(let detail):
                throw ProviderError.transport(scrub("\(cutOff) (\(detail))", secret: secret))
            default:
                throw ProviderError.transport(scrub(describe(error), secret: secret))
            }
        } catch is CancellationError {
            throw ProviderError.transport("cancelled")
        } catch {
            throw ProviderError.transport(scrub(UserMessage.text(for: error), secret: secret))
        }
    }

    /// How a `transport` detail starts when the provider answered but the answer stopped short.
    static let cutOff = "the answer was cut off"

    static func describe(_ error: HTTPError) -> String {
        switch error {
        case .invalidURL(let url): return "invalid URL \(url)"
        case .timedOut: return "the request timed out"
        case .cannotConnect(let detail): return "cannot connect (\(detail))"
        case .bodyTooLarge(let limit): return "the answer was larger than \(limit) bytes"
        case .tooManyRedirects: return "too many redirects"
        case .redirectRefused(let target): return "refused a redirect to \(target)"
        case .cancelled: return "cancelled"
        case .transport(let detail): return detail
        case .connectionLost(let detail): return "the connection was lost (\(detail))"
        case .invalidRequest(let detail): return "invalid request (\(detail))"
        }
    }

    /// The error type/code and message from `{"error":{"type","code","message"}}`,
    /// `{"type":"error","error":{…}}` or Ollama's `{"error":"…"}`.
    static func errorDetails(_ body: Data) -> (type: String?, message: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return (nil, text.isEmpty ? nil : text)
        }
        if let message = object["error"] as? String { return (nil, message) }
        if let error = object["error"] as? [String: Any] {
            let type = (error["code"] as? String) ?? (error["type"] as? String)
            return (type, error["message"] as? String)
        }
        return (nil, object["message"] as? String)
    }

    /// The server's requested delay: `retry-after-ms`, then `retry-after` as seconds or an HTTP
    /// date; garbage gives nil, and values are clamped to [0, 120] s.
    static func retryAfter(_ response: HTTPResponse, now: Date = Date()) -> TimeInterval? {
        if let ms = response.header("retry-after-ms").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms.isFinite {
            return clamp(ms / 1000)
        }
        guard let raw = response.header("retry-after")?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if let seconds = Double(raw), seconds.isFinite { return clamp(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: raw) else { return nil }
        return clamp(date.timeIntervalSince(now))
    }

    private static func clamp(_ value: TimeInterval) -> TimeInterval {
        min(max(value, 0), maxRetryAfter)
    }

    /// Removes the secret (and any long token-looking run that contains it) and bounds the length,
    /// so server text can go into an error message.
    static func scrub(_ text: String, secret: String?) -> String {
        var result = text
        if let secret, secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "[key]")
        }
        result = result.replacingOccurrences(of: "\n", with: " ")
        if result.count > 300 { result = String(result.prefix(300)) + "…" }
        return result
    }

    /// Parses a 2xx body as a JSON object or throws `badResponse`.
    static func jsonObject(_ body: Data) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw ProviderError.badResponse("the body is not a JSON object")
        }
        return object
    }

    /// Serialises a request body; the dictionaries are built by Crate, so failure is a bug
    /// reported as `badResponse` rather than a crash.
    static func jsonBody(_ object: [String: Any]) throws -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        } catch {
            throw ProviderError.badResponse("could not encode the request")
        }
    }

    /// Integer from a JSON number (Linux Foundation may hand back Int, Double or NSNumber); nil for
    /// anything else, including a number no `Int` holds (`1e300` would trap in `Int(_:)`).
    static func int(_ value: Any?) -> Int? {
        switch value {
        case let v as Int: return v
        case let v as Double: return Int(exactly: v.rounded(.towardZero))
        case let v as NSNumber: return Int(exactly: v.doubleValue.rounded(.towardZero))
        default: return nil
        }
    }

    /// Joins `base` and a path such as `v1/messages`, tolerating a trailing slash in `base`.
    static func url(_ base: URL, _ path: String) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/" + path) ?? base.appendingPathComponent(path)
    }
}
