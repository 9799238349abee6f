import Foundation

/// ListenBrainz's API (`https://api.listenbrainz.org/1`): a user's top release groups and recent
/// listens, sitewide charts, fresh releases, collaborative-filtering recommendations with the
/// batched recording → release lookup, and recording feedback.
///
/// Pacing: ListenBrainz counts requests per window and says how many are left
/// (`X-RateLimit-Remaining`) and when the window ends (`X-RateLimit-Reset-In`). When none are
/// left, or on a 429, the host is deferred in the environment's `RateLimiter` (so every Crate
/// process holds back); a wait longer than `RetryPolicy.listenBrainz.failFastAfter` fails the call
/// at once with `ListenBrainzError.rateLimited` instead of sitting silent.
public final class ListenBrainzClient: Sendable {
    public let baseURL: URL
    public let user: String?
    private let token: String?
    private let http: HTTPClient
    private let limiter: RateLimiter?
    private let userAgent: String
    private let timeout: TimeInterval
    /// Recordings per batched metadata lookup (the URL stays well under 4 KB).
    public static let metadataBatchSize = 50

    public init(http: HTTPClient, baseURL: URL, user: String?, token: String?, limiter: RateLimiter? = nil,
                userAgent: String = "Crate/\(CrateVersion.string)", timeout: TimeInterval = 10) {
        self.http = http
        self.baseURL = baseURL
        self.user = user.flatMap { $0.isEmpty ? nil : $0 }
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.limiter = limiter
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// The client the app uses: libcurl, one retry on 5xx, paced by the environment's limiter.
    public static func live(settings: Settings, user: String?, token: String?, transport: HTTPClient = CurlHTTPClient(),
                            limiter: RateLimiter = .shared) -> ListenBrainzClient {
        let http = ResilientHTTPClient(base: transport, policy: .listenBrainz, limiter: limiter)
        return ListenBrainzClient(http: http, baseURL: settings.endpoints.listenBrainz, user: user, token: token, limiter: limiter,
                                  userAgent: "Crate/\(CrateVersion.string) ( \(settings.musicBrainzContact) )")
    }

    public var hasToken: Bool { token != nil }

    /// The user's most listened release groups. 204 (not computed yet) throws `.statsNotReady`.
    public func topReleaseGroups(range: String = "this_month", count: Int = 50) async throws -> [ListenBrainzReleaseGroup] {
        let user = try requireUser()
        let body = try await get("stats/user/\(Self.pathComponent(user))/release-groups", query: ["range": range, "count": "\(Self.clamp(count))"], user: user)
        guard let body else { throw ListenBrainzError.statsNotReady }
        return try decode(LBStatsPayload.self, body, what: "user statistics").releaseGroups.map(\.value)
    }

    /// The release groups of the user's latest listens (those mapped to MusicBrainz), newest first.
    public func recentReleaseGroups(count: Int = 100) async throws -> [ListenBrainzReleaseGroup] {
        let user = try requireUser()
        let body = try await get("user/\(Self.pathComponent(user))/listens", query: ["count": "\(Self.clamp(count))"], user: user)
        guard let body else { return [] }
        return try decode(LBListensPayload.self, body, what: "listens").listens.compactMap(\.value)
    }

    /// Sitewide top release groups (`this_week`, `this_month`, `this_year`, `all_time`).
    public func sitewideTopReleaseGroups(range: String = "this_week", count: Int = 100, offset: Int = 0) async throws -> [ListenBrainzReleaseGroup] {
        let body = try await get("stats/sitewide/release-groups", query: ["range": range, "count": "\(Self.clamp(count))", "offset": "\(max(0, offset))"], user: nil)
        guard let body else { throw ListenBrainzError.statsNotReady }
        return try decode(LBStatsPayload.self, body, what: "sitewide statistics").releaseGroups.map(\.value)
    }

    /// Releases of the last `days` days (1…90), newest first.
    public func freshReleases(days: Int = 30) async throws -> [ListenBrainzReleaseGroup] {
        let body = try await get("explore/fresh-releases/", query: ["days": "\(min(max(days, 1), 90))", "sort": "release_date", "past": "true", "future": "false"], user: nil)
        guard let body else { return [] }
        return try decode(LBFreshPayload.self, body, what: "fresh releases").releases.map(\.value)
    }

    /// Recording MBIDs recommended to the user (collaborative filtering); none (204) is empty.
    public func recommendedRecordings(count: Int = 100) async throws -> [MBID] {
        let user = try requireUser()
        let body = try await get("cf/recommendation/user/\(Self.pathComponent(user))/recording", query: ["count": "\(Self.clamp(count))"], user: user)
        guard let body else { return [] }
        return try decode(LBRecommendationPayload.self, body, what: "recommendations").recordings
    }

    /// The release (and its group) of each recording, `metadataBatchSize` recordings per request:
    /// never one request per recording.
    public func releases(ofRecordings recordings: [MBID]) async throws -> [MBID: ListenBrainzReleaseGroup] {
        var seen = Set<MBID>()
        let unique = recordings.filter { seen.insert($0).inserted }
        let batches = stride(from: 0, to: unique.count, by: Self.metadataBatchSize).map {
            Array(unique[$0..<min($0 + Self.metadataBatchSize, unique.count)])
        }
        // The batches go side by side (a wall waits for the slowest, not for their sum); the
        // rate-limit headers still pace them.
        return try await withThrowingTaskGroup(of: [MBID: ListenBrainzReleaseGroup].self) { group in
            for batch in batches {
                group.addTask {
                    let body = try await self.get("metadata/recording/", query: ["recording_mbids": batch.map(\.rawValue).joined(separator: ","), "inc": "artist release"], user: nil)
                    guard let body else { return [:] }
                    return try self.decode(LBRecordingMetadata.self, body, what: "recording metadata").releases
                }
            }
            var found: [MBID: ListenBrainzReleaseGroup] = [:]
            for try await part in group { found.merge(part) { a, _ in a } }
            return found
        }
    }

    /// Recording feedback: 1 love, -1 hate, 0 removes it. Needs the token.
    public func sendFeedback(recording: MBID, score: Int) async throws {
        guard let token else { throw ListenBrainzError.noToken }
        let payload = try JSONSerialization.data(withJSONObject: ["recording_mbid": recording.rawValue, "score": max(-1, min(1, score))], options: [.sortedKeys])
        var request = HTTPRequest(method: "POST", url: try url("feedback/recording-feedback", query: [:]), headers: headers(token: token), body: payload,
                                  timeout: timeout, maxBodyBytes: 1 << 20)
        request.headers["Content-Type"] = "application/json"
        _ = try await send(request, user: user)
    }

    /// The user name the token belongs to; throws `.invalidToken` when ListenBrainz rejects it.
    public func validateToken() async throws -> String {
        guard let token else { throw ListenBrainzError.noToken }
        let request = HTTPRequest(url: try url("validate-token", query: [:]), headers: headers(token: token), timeout: timeout, maxBodyBytes: 1 << 20)
        guard let body = try await send(request, user: user) else { throw ListenBrainzError.invalidToken }
        let answer = try decode(LBValidateToken.self, body, what: "token check")
        guard answer.valid, let name = answer.user else { throw ListenBrainzError.invalidToken }
        return name
    }
}

extension RetryPolicy {
    /// ListenBrainz: one retry on 5xx; 429 is the client's (it reads `X-RateLimit-Reset-In`, not
    /// `Retry-After`); a pause longer than 10 s fails fast so a wall never waits on it.
    public static var listenBrainz: RetryPolicy {
        var policy = RetryPolicy()
        policy.retryableStatuses = [500, 502, 503, 504]
        policy.maxRetryWait = 10
        policy.failFastAfter = 10
        return policy
    }
}

// MARK: - Private

private extension ListenBrainzClient {
    func requireUser() throws -> String {
        guard let user else { throw ListenBrainzError.noAccount }
        return user
    }

    func headers(token: String?) -> [String: String] {
        var headers = ["User-Agent": userAgent, "Accept": "application/json"]
        if let token { headers["Authorization"] = "Token \(token)" }
        return headers
    }

    /// The body, or nil for 204 (nothing computed / nothing to say).
    func get(_ path: String, query: [String: String], user: String?) async throws -> Data? {
        let request = HTTPRequest(url: try url(path, query: query), headers: headers(token: token), timeout: timeout, maxBodyBytes: 8 << 20)
        return try await send(request, user: user)
    }

    func send(_ request: HTTPRequest, user: String?) async throws -> Data? {
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw ListenBrainzError.network(error)
        } catch let error as RetryLaterError {
            throw ListenBrainzError.rateLimited(seconds: error.seconds)
        }
        await pace(after: response)
        switch response.status {
        case 204: return nil
        case 200..<300: return response.body
        case 400: throw ListenBrainzError.badRequest
        case 401, 403: throw ListenBrainzError.invalidToken
        case 404: throw user.map(ListenBrainzError.unknownUser) ?? ListenBrainzError.server(status: 404)
        case 429: throw ListenBrainzError.rateLimited(seconds: Self.resetIn(response) ?? 10)
        default:
            Log.debug("ListenBrainz HTTP \(response.status) for \(request.url.path)")
            throw ListenBrainzError.server(status: response.status)
        }
    }

    /// No requests left in the window (or a 429): every Crate process waits for the reset.
    func pace(after response: HTTPResponse) async {
        guard let limiter else { return }
        let remaining = response.header("x-ratelimit-remaining").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard response.status == 429 || (remaining ?? 1) <= 0 else { return }
        let wait = Self.resetIn(response) ?? (response.status == 429 ? 10 : 1)
        await limiter.deferHost(RateLimiter.key(for: response.url), by: wait)
    }

    static func resetIn(_ response: HTTPResponse) -> TimeInterval? {
        guard let text = response.header("x-ratelimit-reset-in"), let seconds = Double(text.trimmingCharacters(in: .whitespaces)),
              seconds.isFinite else { return nil }
        return min(max(seconds, 0), 3600)
    }

    func url(_ path: String, query: [String: String]) throws -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let root = base.hasSuffix("/1") ? base : base + "/1"
        var text = "\(root)/\(path)"
        if !query.isEmpty {
            text += "?" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.formEncode($0.value))" }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw ListenBrainzError.network(.invalidURL(base)) }
        return url
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: Data, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw ListenBrainzError.malformedResponse(what)
        }
    }

    static func clamp(_ count: Int) -> Int { min(max(count, 1), 1000) }

    /// A user name in a path: anything but unreserved characters is percent-encoded, so a name
    /// can never climb out of its path segment.
    static func pathComponent(_ text: String) -> String { formEncode(text) }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
