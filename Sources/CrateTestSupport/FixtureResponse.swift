import Foundation

/// One scripted answer of the `FixtureServer`.
public struct FixtureResponse: Sendable {
    /// How the body is sent.
    public enum Body: Sendable {
        /// All at once, with a Content-Length.
        case bytes(Data)
        /// Chunked transfer encoding, chunks of `chunkSize` bytes forever (until the client hangs up).
        case endless(chunkSize: Int)
        /// `total` bytes announced by Content-Length, one byte every `interval` seconds.
        case drip(interval: TimeInterval, total: Int)
        /// Accept the request and never answer at all (not even a status line).
        case never
        /// Read the request and close the connection without a word (curl: "Empty reply from server").
        case hangUp
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body
    /// Seconds to wait before the status line is sent.
    public var delay: TimeInterval

    public init(status: Int = 200, headers: [(String, String)] = [], body: Body = .bytes(Data()), delay: TimeInterval = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A JSON body with `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = [], delay: TimeInterval = 0) -> FixtureResponse {
        FixtureResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(Data(text.utf8)), delay: delay)
    }

    public static func text(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> FixtureResponse {
        FixtureResponse(status: status, headers: [("Content-Type", "text/plain")] + headers, body: .bytes(Data(text.utf8)))
    }

    public static func data(_ data: Data, contentType: String = "image/jpeg") -> FixtureResponse {
        FixtureResponse(status: 200, headers: [("Content-Type", contentType)], body: .bytes(data))
    }

    /// A redirect to `location` (absolute or relative), 307 by default like the Cover Art Archive.
    public static func redirect(to location: String, status: Int = 307) -> FixtureResponse {
        FixtureResponse(status: status, headers: [("Location", location)])
    }

    public static let never = FixtureResponse(body: .never)
    public static let hangUp = FixtureResponse(body: .hangUp)
    public static let notFound = FixtureResponse.json(#"{"error":"Not Found"}"#, status: 404)
}

/// One request as the `FixtureServer` received it.
public struct RecordedRequest: Sendable {
    public var method: String
    /// The path without the query string.
    public var path: String
    public var query: String?
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data
    public var arrival: Date
    /// Monotonic arrival time (`ProcessInfo.systemUptime`), for pacing checks.
    public var uptime: TimeInterval

    /// The decoded value of one query parameter.
    public func queryItem(_ name: String) -> String? {
        guard let query else { return nil }
        var components = URLComponents()
        components.percentEncodedQuery = query
        return components.queryItems?.first(where: { $0.name == name })?.value
    }
}
