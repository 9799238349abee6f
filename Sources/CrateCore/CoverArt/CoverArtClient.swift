import Foundation

/// Fetches a release's front cover from the Cover Art Archive: index JSON (every endpoint
/// answers 307, followed by the HTTP client), front image, 500 px thumbnail; the release group's
/// art when the release has none; `.unavailable` when neither has any.
public final class CoverArtClient: Sendable {
    public let baseURL: URL
    private let http: HTTPClient
    private let userAgent: String
    private let validate: @Sendable (Data) throws -> Void
    private let indexBodyLimit = 1 << 20
    private let imageBodyLimit = 10 << 20

    /// - Parameter validate: checks the downloaded bytes. Defaults to a JPEG magic-bytes check;
    ///   the imaging code plugs its real decoder in here. Throwing rejects the image.
    public init(http: HTTPClient, baseURL: URL, userAgent: String = "Crate/\(CrateVersion.string)", validate: @escaping @Sendable (Data) throws -> Void = { try JPEGSignature.validate($0) }) {
        self.http = http
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.validate = validate
    }

    /// The client the app uses: libcurl with one automatic retry; a server-asked pause is shared
    /// with the user's other Crate processes through `limiter`.
    public static func live(settings: Settings, transport: HTTPClient = CurlHTTPClient(), limiter: RateLimiter = .shared,
                            validate: @escaping @Sendable (Data) throws -> Void = { try JPEGSignature.validate($0) }) -> CoverArtClient {
        let http = ResilientHTTPClient(base: transport, policy: .coverArtArchive, limiter: limiter)
        return CoverArtClient(http: http, baseURL: settings.endpoints.coverArtArchive, userAgent: "Crate/\(CrateVersion.string) ( \(settings.musicBrainzContact) )", validate: validate)
    }

    /// The front cover of `release`, falling back to `releaseGroup`'s.
    public func frontCover(release: MBID, releaseGroup: MBID?) async throws -> CoverArtResult {
        if let image = try await frontImage(path: "release/\(release.rawValue)") {
            if let cover = try await download(image, fromReleaseGroup: false) { return .image(cover) }
        }
        if let releaseGroup, let image = try await frontImage(path: "release-group/\(releaseGroup.rawValue)") {
            if let cover = try await download(image, fromReleaseGroup: true) { return .image(cover) }
        }
        return .unavailable
    }

    /// The release group's front at 250 px (`/release-group/<id>/front-250`, a 307 to the image),
    /// validated; nil when the Cover Art Archive has none (404). For artist pages.
    public func releaseGroupFront250(_ releaseGroup: MBID) async throws -> Data? {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: "\(base)/release-group/\(releaseGroup.rawValue)/front-250") else { throw CoverArtError.network(.invalidURL(base)) }
        let response = try await get(url, limit: imageBodyLimit, accept: "image/jpeg")
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw CoverArtError.server(status: response.status) }
        do {
            try validate(response.body)
        } catch let error as CoverArtError {
            throw error
        } catch {
            throw CoverArtError.invalidImage(UserMessage.text(for: error))
        }
        return response.body
    }
}

// MARK: - Private

private extension CoverArtClient {
    /// The index's front image, or nil when there is no art (404) or no front among it.
    func frontImage(path: String) async throws -> CoverArtIndex.Image? {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: "\(base)/\(path)") else { throw CoverArtError.network(.invalidURL(base)) }
        let response = try await get(url, limit: indexBodyLimit, accept: "application/json")
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw CoverArtError.server(status: response.status) }
        do {
            return try JSONDecoder().decode(CoverArtIndex.self, from: response.body).front
        } catch {
            throw CoverArtError.malformedIndex
        }
    }

    /// Nil when the image itself is gone (404); validated bytes otherwise.
    func download(_ image: CoverArtIndex.Image, fromReleaseGroup: Bool) async throws -> CoverArtImage? {
        guard let text = image.preferredURL, let url = Self.upgraded(URL(string: text)) else { throw CoverArtError.malformedIndex }
        let response = try await get(url, limit: imageBodyLimit, accept: "image/jpeg")
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw CoverArtError.server(status: response.status) }
        do {
            try validate(response.body)
        } catch let error as CoverArtError {
            throw error
        } catch {
            throw CoverArtError.invalidImage(UserMessage.text(for: error))
        }
        return CoverArtImage(data: response.body, sourceURL: url, fromReleaseGroup: fromReleaseGroup)
    }

    func get(_ url: URL, limit: Int, accept: String) async throws -> HTTPResponse {
        do {
            return try await http.send(HTTPRequest(url: url, headers: ["User-Agent": userAgent, "Accept": accept], timeout: 15, maxBodyBytes: limit))
        } catch let error as HTTPError {
            throw CoverArtError.network(error)
        } catch let error as RetryLaterError {
            throw CoverArtError.mustWait(seconds: error.seconds)
        }
    }

    /// The index lists `http://` URLs; on the real archive hosts Crate asks for https directly.
    static func upgraded(_ url: URL?) -> URL? {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let host = components.host?.lowercased() ?? ""
        if components.scheme?.lowercased() == "http", host == "coverartarchive.org" || host == "archive.org" || host.hasSuffix(".archive.org") {
            components.scheme = "https"
        }
        return components.url
    }
}
