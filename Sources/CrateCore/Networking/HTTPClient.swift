import Foundation

/// One HTTP request. Every field a caller may need to bound is explicit.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header names as sent; lookups are case-insensitive on the server side.
    public var headers: [String: String]
    public var body: Data?
    /// Total time allowed for the whole exchange, redirects included.
    public var timeout: TimeInterval
    /// Bodies longer than this are aborted with `HTTPError.bodyTooLarge`.
    public var maxBodyBytes: Int
    /// A user name and password answered to an HTTP Digest challenge (MusicBrainz collections);
    /// never sent to another origin after a redirect.
    public var digest: HTTPCredentials?

    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 10, maxBodyBytes: Int = 8 << 20,
                digest: HTTPCredentials? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.digest = digest
    }
}

/// One HTTP response, after redirects.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data
    /// The URL that finally answered (after redirects).
    public var url: URL

    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL) {
        self.status = status
        var lowered: [String: String] = [:]
        for (k, v) in headers { lowered[k.lowercased()] = v }
        self.headers = lowered
        self.body = body
        self.url = url
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Transport-level failures (an HTTP status is not an error at this level).
public enum HTTPError: Error, Equatable, Sendable {
    case invalidURL(String)
    case timedOut
    case cannotConnect(String)
    case bodyTooLarge(limit: Int)
    case tooManyRedirects
    /// A redirect to a scheme other than http(s), e.g. `file://`.
    case redirectRefused(String)
    case cancelled
    case transport(String)
    /// The connection dropped mid-exchange (reset, empty reply); worth one retry.
    case connectionLost(String)
    /// The request itself is unusable (e.g. a header value containing a line break).
    case invalidRequest(String)
}

/// The injectable HTTP client: live over libcurl, fakes in tests.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Seconds before a request to `url` may go because the server asked for a pause.
    func pendingDeferral(for url: URL) async -> TimeInterval
}

extension HTTPClient {
    /// 0 for clients that do not pace (`ResilientHTTPClient` knows better).
    public func pendingDeferral(for url: URL) async -> TimeInterval {
        0
    }
}
