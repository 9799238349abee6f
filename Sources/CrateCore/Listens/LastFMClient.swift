import Foundation

/// Last.fm's API 2.0 (`https://ws.audioscrobbler.com/2.0/`): `track.updateNowPlaying`,
/// `track.scrobble` (up to 50 a request), and the desktop sign-in (`auth.getToken`, the user
/// approves in the browser, `auth.getSession`). Every call is signed: `api_sig` is the MD5 of the
/// parameters sorted by name, names and values run together, then the shared secret.
///
/// Error codes (in a JSON body, on HTTP 200 or 4xx): 9 invalid session → `.notAuthorized`;
/// 11 / 16 service offline → `.unavailable`; 29 rate limit → `.rateLimited` (the host is paused
/// for every Crate process). No retry here: the outbox owns retries.
public struct LastFMClient: ListenSubmitter {
    public static let defaultBaseURL = URL(string: "https://ws.audioscrobbler.com/2.0/")!
    /// Where the user approves a token (`?api_key=…&token=…`).
    public static let authorizeURL = URL(string: "https://www.last.fm/api/auth/")!
    /// A rate-limit answer carries no time: Crate pauses this long.
    static let rateLimitPause: TimeInterval = 60

    public let service = ListenService.lastFM
    public let baseURL: URL
    private let apiKey: String?
    private let secret: String?
    private let sessionKey: String?
    /// The session's user, kept from `auth.getSession` (`user.getInfo` asks when unknown).
    let user: String?
    private let http: HTTPClient
    private let limiter: RateLimiter?
    private let timeout: TimeInterval

    public init(http: HTTPClient, baseURL: URL = LastFMClient.defaultBaseURL, apiKey: String?, secret: String?, sessionKey: String?,
                user: String? = nil, limiter: RateLimiter? = nil, timeout: TimeInterval = 15) {
        self.http = http
        self.baseURL = baseURL
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
        self.sessionKey = sessionKey.flatMap { $0.isEmpty ? nil : $0 }
        self.user = user.flatMap { $0.isEmpty ? nil : $0 }
        self.limiter = limiter
        self.timeout = timeout
    }

    public var isConfigured: Bool { apiKey != nil && secret != nil && sessionKey != nil }
    public var hasApplication: Bool { apiKey != nil && secret != nil }

    public func nowPlaying(_ track: ListenTrack) async throws {
        var params = ["method": "track.updateNowPlaying", "artist": track.artist, "track": track.title]
        Self.add(track, index: nil, to: &params)
        _ = try await call(params, session: true)
    }

    public func submit(_ listens: [QueuedListen]) async throws {
        guard !listens.isEmpty else { return }
        var params = ["method": "track.scrobble"]
        for (i, listen) in listens.prefix(service.batchSize).enumerated() {
            params["artist[\(i)]"] = listen.track.artist
            params["track[\(i)]"] = listen.track.title
            params["timestamp[\(i)]"] = String(Int(listen.listenedAt.timeIntervalSince1970))
            Self.add(listen.track, index: i, to: &params)
        }
        _ = try await call(params, session: true)
    }

    /// Step 1 of the desktop sign-in: a token for the user to approve at `approvalURL(token:)`.
    public func requestToken() async throws -> String {
        let body = try await call(["method": "auth.getToken"], session: false)
        guard let token = (body["token"] as? String), !token.isEmpty else { throw ListenSubmitError.unavailable(service) }
        return token
    }

    /// The page where the user lets Crate scrobble for them.
    public func approvalURL(token: String) -> URL? {
        guard let apiKey else { return nil }
        var components = URLComponents(url: Self.authorizeURL, resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "api_key", value: apiKey), URLQueryItem(name: "token", value: token)]
        return components?.url
    }

    /// Step 2, once approved: the session key (kept like the other secrets) and the user name.
    /// Error 14 (token not yet approved) is `.notAuthorized`.
    public func session(token: String) async throws -> (key: String, user: String) {
        let body = try await call(["method": "auth.getSession", "token": token], session: false)
        guard let session = body["session"] as? [String: Any], let key = session["key"] as? String, !key.isEmpty else {
            throw ListenSubmitError.unavailable(service)
        }
        return (key, session["name"] as? String ?? "")
    }

    /// `api_sig` for `params` (without `format` and `callback`, which are never signed).
    public static func signature(_ params: [String: String], secret: String) -> String {
        let text = params.filter { $0.key != "format" && $0.key != "callback" }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map { $0.key + $0.value }.joined()
        return MD5.hex(text + secret)
    }

    private static func add(_ track: ListenTrack, index: Int?, to params: inout [String: String]) {
        let suffix = index.map { "[\($0)]" } ?? ""
        if let release = track.release { params["album" + suffix] = release }
        if let number = track.trackNumber.flatMap({ Int($0) }) { params["trackNumber" + suffix] = String(number) }
        if let duration = track.durationMs { params["duration" + suffix] = String(duration / 1000) }
        if let id = track.recordingID { params["mbid" + suffix] = id }
    }

    /// One API call: a signed POST, or (`signed` false, for reading) an unsigned GET.
    func call(_ base: [String: String], session: Bool, signed: Bool = true) async throws -> [String: Any] {
        guard let apiKey, let secret, !session || sessionKey != nil else { throw ListenSubmitError.notConfigured(service) }
        let host = RateLimiter.key(for: baseURL)
        if let limiter {
            let wait = await limiter.pendingDeferral(host: host)
            if wait > 0 { throw ListenSubmitError.rateLimited(service, seconds: wait) }
        }
        var params = base
        params["api_key"] = apiKey
        if signed {
            if session, let sessionKey { params["sk"] = sessionKey }
            params["api_sig"] = Self.signature(params, secret: secret)
        }
        params["format"] = "json"
        let form = params.sorted { $0.key < $1.key }.map { "\(Self.formEncode($0.key))=\(Self.formEncode($0.value))" }.joined(separator: "&")
        var headers = ["Accept": "application/json", "User-Agent": "Crate/\(CrateVersion.string)"]
        let request: HTTPRequest
        if signed {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            request = HTTPRequest(method: "POST", url: baseURL, headers: headers, body: Data(form.utf8), timeout: timeout, maxBodyBytes: 1 << 20)
        } else {
            guard let url = URL(string: baseURL.absoluteString + "?" + form) else { throw ListenSubmitError.notConfigured(service) }
            request = HTTPRequest(method: "GET", url: url, headers: headers, timeout: timeout, maxBodyBytes: 4 << 20)
        }
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            throw ListenSubmitError.unavailable(service)
        }
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        if let code = json?["error"] as? Int {
            try await fail(code: code, host: host)
        }
        switch response.status {
        case 200..<300:
            guard let json else { throw ListenSubmitError.unavailable(service) }
            return json
        case 429:
            await limiter?.deferHost(host, by: RetryAfter.delay(in: response, now: Date()) ?? Self.rateLimitPause)
            throw ListenSubmitError.rateLimited(service, seconds: RetryAfter.granted(RetryAfter.delay(in: response, now: Date()) ?? Self.rateLimitPause))
        default:
            throw ListenSubmitError.unavailable(service)
        }
    }

    private func fail(code: Int, host: String) async throws -> Never {
        Log.debug("Last.fm error \(code)")
        switch code {
        case 4, 9, 10, 14, 15, 26: throw ListenSubmitError.notAuthorized(service)
        case 11, 16: throw ListenSubmitError.unavailable(service)
        case 29:
            await limiter?.deferHost(host, by: Self.rateLimitPause)
            throw ListenSubmitError.rateLimited(service, seconds: Self.rateLimitPause)
        case 8: throw ListenSubmitError.unavailable(service)
        default: throw ListenSubmitError.rejected(service, "error \(code)")
        }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
