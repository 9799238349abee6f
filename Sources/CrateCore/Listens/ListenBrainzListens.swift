import Foundation

/// ListenBrainz's `POST /1/submit-listens`: "playing_now", one listen ("single") or up to 1 000
/// ("import") with the user token.
///
/// No automatic retry here: the outbox owns retries. Pacing is shared with every Crate process
/// through the environment's `RateLimiter`: a 429 (or a spent window) defers the host for the
/// time `Retry-After` / `X-RateLimit-Reset-In` names, capped at `RetryAfter.maximum`, and a
/// deferred host is not asked at all until then.
public struct ListenBrainzListens: ListenSubmitter {
    public let service = ListenService.listenBrainz
    public let baseURL: URL
    private let token: String?
    private let http: HTTPClient
    private let limiter: RateLimiter?
    private let timeout: TimeInterval

    public init(http: HTTPClient, baseURL: URL, token: String?, limiter: RateLimiter? = nil, timeout: TimeInterval = 15) {
        self.http = http
        self.baseURL = baseURL
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.limiter = limiter
        self.timeout = timeout
    }

    public var isConfigured: Bool { token != nil }

    public func nowPlaying(_ track: ListenTrack) async throws {
        try await post(type: "playing_now", payload: [Self.listen(track, at: nil)])
    }

    public func submit(_ listens: [QueuedListen]) async throws {
        guard !listens.isEmpty else { return }
        let payload = listens.prefix(service.batchSize).map { Self.listen($0.track, at: $0.listenedAt) }
        try await post(type: payload.count == 1 ? "single" : "import", payload: payload)
    }

    /// One `payload` entry in ListenBrainz's shape; ids and numbers go in `additional_info`.
    static func listen(_ track: ListenTrack, at date: Date?) -> [String: Any] {
        var metadata: [String: Any] = ["artist_name": track.artist, "track_name": track.title]
        if let release = track.release { metadata["release_name"] = release }
        var info: [String: Any] = ["media_player": "Crate", "submission_client": "Crate", "submission_client_version": CrateVersion.string]
        if let id = track.recordingID { info["recording_mbid"] = id }
        if let id = track.releaseID { info["release_mbid"] = id }
        if let id = track.releaseGroupID { info["release_group_mbid"] = id }
        if let number = track.trackNumber { info["tracknumber"] = number }
        if let disc = track.discNumber { info["discnumber"] = disc }
        if let duration = track.durationMs { info["duration_ms"] = duration }
        metadata["additional_info"] = info
        var listen: [String: Any] = ["track_metadata": metadata]
        if let date { listen["listened_at"] = Int(date.timeIntervalSince1970) }
        return listen
    }

    private func post(type: String, payload: [[String: Any]]) async throws {
        guard let token else { throw ListenSubmitError.notConfigured(service) }
        let url = try endpoint()
        let host = RateLimiter.key(for: url)
        if let limiter {
            let wait = await limiter.pendingDeferral(host: host)
            if wait > 0 { throw ListenSubmitError.rateLimited(service, seconds: wait) }
        }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: ["listen_type": type, "payload": payload], options: [.sortedKeys])
        } catch {
            throw ListenSubmitError.rejected(service, "unencodable")
        }
        let request = HTTPRequest(method: "POST", url: url, headers: [
            "Authorization": "Token \(token)", "Content-Type": "application/json", "Accept": "application/json",
            "User-Agent": "Crate/\(CrateVersion.string)",
        ], body: body, timeout: timeout, maxBodyBytes: 1 << 20)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            throw ListenSubmitError.unavailable(service)
        }
        try await check(response, host: host)
    }

    private func check(_ response: HTTPResponse, host: String) async throws {
        let remaining = response.header("x-ratelimit-remaining").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let wait = Self.wait(in: response)
        if response.status == 429 || (remaining ?? 1) <= 0 {
            await limiter?.deferHost(host, by: wait ?? 10)
        }
        switch response.status {
        case 200..<300: return
        case 401, 403: throw ListenSubmitError.notAuthorized(service)
        case 429: throw ListenSubmitError.rateLimited(service, seconds: RetryAfter.granted(wait ?? 10))
        case 400, 413:
            Log.debug("ListenBrainz refused listens: HTTP \(response.status)")
            throw ListenSubmitError.rejected(service, "HTTP \(response.status)")
        default:
            // 5xx and anything unexpected: the listens stay queued.
            if let wait { await limiter?.deferHost(host, by: wait) }
            throw ListenSubmitError.unavailable(service)
        }
    }

    /// The pause the answer asks for: `Retry-After` first, else `X-RateLimit-Reset-In`.
    static func wait(in response: HTTPResponse) -> TimeInterval? {
        if let seconds = RetryAfter.delay(in: response, now: Date()) { return seconds }
        guard let text = response.header("x-ratelimit-reset-in"), let seconds = Double(text.trimmingCharacters(in: .whitespaces)),
              seconds.isFinite else { return nil }
        return min(max(seconds, 0), RetryAfter.ceiling)
    }

    private func endpoint() throws -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let root = base.hasSuffix("/1") ? base : base + "/1"
        guard let url = URL(string: root + "/submit-listens") else { throw ListenSubmitError.notConfigured(service) }
        return url
    }
}
