import Foundation

/// A Discogs release matched to an album: where to view it and how sure the match is. Only
/// these fields are ever kept — never a marketplace, price, for-sale or want/have field
/// (docs/decisions/0005-music-never-money.md): the search reply is decoded into this shape and
/// everything else in it is dropped before anything is stored.
public struct DiscogsLink: Equatable, Sendable, Codable {
    public var releaseID: Int
    /// `https://www.discogs.com/release/…`.
    public var url: URL
    /// 0–1.
    public var score: Double
    public var title: String
    public var year: String?

    public init(releaseID: Int, url: URL, score: Double, title: String, year: String?) {
        self.releaseID = releaseID
        self.url = url
        self.score = score
        self.title = title
        self.year = year
    }

    /// "View on Discogs (87 % match)".
    public var label: String { L10n.tr("View on Discogs (%@ %% match)", Int((score * 100).rounded())) }
}

/// What to look for: the identified album, plus a barcode or catalogue number when the vision
/// model read one.
public struct DiscogsQuery: Equatable, Sendable {
    public var artist: String
    public var title: String
    public var year: String?
    public var barcode: String?
    public var catalogueNumber: String?

    public init(artist: String, title: String, year: String? = nil, barcode: String? = nil, catalogueNumber: String? = nil) {
        self.artist = artist
        self.title = title
        self.year = year
        self.barcode = barcode
        self.catalogueNumber = catalogueNumber
    }
}

/// Why Discogs gave no link.
public enum DiscogsError: Error, Equatable, Sendable {
    /// No token is set (settings or `CRATE_DISCOGS_TOKEN`).
    case noToken
    /// 401: the token was refused.
    case tokenRejected
    /// 429 (after the one retry the transport makes): try again after `seconds`.
    case rateLimited(seconds: TimeInterval)
    case server(status: Int)
    case malformedResponse
    case network(HTTPError)

    public var message: String {
        switch self {
        case .noToken: return "Discogs links need a Discogs token: add one in Preferences or set CRATE_DISCOGS_TOKEN."
        case .tokenRejected: return "Discogs token rejected. Check the token in Preferences (Discogs → Settings → Developers)."
        case .rateLimited(let seconds):
            return "Discogs asked Crate to slow down; the link is looked up again in \(WaitDuration.spoken(seconds))."
        case .server(let status): return "Discogs answered with an error (HTTP \(status)); the link is looked up again later."
        case .malformedResponse: return "Discogs sent an answer Crate could not read; the link is looked up again later."
        case .network(let error): return error.unreachable("Discogs")
        }
    }
}

extension DiscogsError: LocalizedError {
    public var errorDescription: String? { message }
}

/// The Discogs database search (`GET /database/search`), authenticated with a personal token,
/// paced to Discogs's 60 requests a minute, and reduced to a `DiscogsLink`.
public struct DiscogsClient: Sendable {
    public static let defaultBaseURL = URL(string: "https://api.discogs.com")!
    /// Below this, no link is offered: a wrong link is worse than none.
    public static let minimumScore = 0.6

    private let http: any HTTPClient
    private let limiter: RateLimiter
    let baseURL: URL
    private let token: String
    private let userAgent: String

    public init(http: any HTTPClient, limiter: RateLimiter, baseURL: URL = defaultBaseURL, token: String, contact: String) {
        self.http = http
        self.limiter = limiter
        self.baseURL = baseURL
        self.token = token
        self.userAgent = "Crate/\(CrateVersion.string) ( \(contact) )"
    }

    /// Pacing and one retry for 429 and 5xx (honouring `Retry-After`), one request per second.
    public static var retryPolicy: RetryPolicy {
        var policy = RetryPolicy()
        policy.minimumInterval = 1.0
        policy.failFastAfter = 60
        return policy
    }

    /// The best match for `query`, or nil when nothing scores well enough. With a barcode or
    /// catalogue number, that search comes first (it is the most precise); artist + title + year
    /// otherwise or when it finds nothing.
    public func bestMatch(for query: DiscogsQuery) async throws -> DiscogsLink? {
        var searches: [[URLQueryItem]] = []
        if let barcode = query.barcode?.trimmingCharacters(in: .whitespaces), !barcode.isEmpty {
            searches.append([URLQueryItem(name: "barcode", value: barcode)])
        }
        if let catno = query.catalogueNumber?.trimmingCharacters(in: .whitespaces), !catno.isEmpty {
            searches.append([URLQueryItem(name: "catno", value: catno), URLQueryItem(name: "artist", value: query.artist)])
        }
        var plain = [URLQueryItem(name: "artist", value: query.artist), URLQueryItem(name: "release_title", value: query.title)]
        if let year = query.year, !year.isEmpty { plain.append(URLQueryItem(name: "year", value: year)) }
        searches.append(plain)
        for items in searches {
            let results = try await search(items)
            if let best = Self.rank(results, for: query).first, best.score >= Self.minimumScore { return best }
        }
        return nil
    }

    /// One search page, decoded to the fields Crate keeps.
    func search(_ items: [URLQueryItem]) async throws -> [DiscogsSearchResult] {
        var components = URLComponents(url: baseURL.appendingPathComponent("database/search"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "type", value: "release")] + items + [URLQueryItem(name: "per_page", value: "10")]
        guard let url = components?.url else { throw DiscogsError.malformedResponse }
        return try DiscogsSearchResult.decodePage(try await get(url))
    }

    /// Preferences' "Test": the user name the token belongs to (`GET /oauth/identity`).
    public func identity() async throws -> String {
        let body = try await get(baseURL.appendingPathComponent("oauth/identity"))
        struct Identity: Decodable { var username: String }
        guard let identity = try? JSONDecoder().decode(Identity.self, from: body),
              !identity.username.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DiscogsError.malformedResponse
        }
        return identity.username
    }

    /// One authenticated GET; the body of a 200, else the matching `DiscogsError`.
    func get(_ url: URL) async throws -> Data {
        try await send("GET", url)
    }

    /// One authenticated request (GET, POST, PUT, DELETE; a JSON body when given); the body of
    /// a 2xx, else the matching `DiscogsError` (404 is `.server(status: 404)`).
    func send(_ method: String, _ url: URL, json body: Data? = nil) async throws -> Data {
        var headers = ["Authorization": "Discogs token=\(token)", "User-Agent": userAgent, "Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw DiscogsError.network(error)
        }
        // The moving window is spent: wait it out before the next request (in every process).
        if let remaining = response.header("X-Discogs-Ratelimit-Remaining").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), remaining <= 0 {
            await limiter.deferHost(RateLimiter.key(for: url), by: 60)
        }
        switch response.status {
        case 200..<300: return response.body
        case 401, 403: throw DiscogsError.tokenRejected
        case 429:
            let seconds = RetryAfter.delay(in: response, now: Date()) ?? 60
            await limiter.deferHost(RateLimiter.key(for: url), by: seconds)
            throw DiscogsError.rateLimited(seconds: seconds)
        default: throw DiscogsError.server(status: response.status)
        }
    }

    /// Scores each result against the query, best first: artist and title similarity, the year,
    /// and an exact barcode or catalogue number.
    static func rank(_ results: [DiscogsSearchResult], for query: DiscogsQuery) -> [DiscogsLink] {
        results.compactMap { result -> DiscogsLink? in
            guard let url = result.pageURL else { return nil }
            let (artist, title) = result.artistAndTitle
            // Discogs names namesakes "Prince (2)": the suffix is not part of the name.
            var score = 0.45 * MusicText.similarity(ArtistCredit.name(artist), query.artist) + 0.45 * MusicText.similarity(title, query.title)
            if let year = query.year, let found = result.year, !year.isEmpty {
                score += year == found ? 0.1 : -0.05
            } else {
                score += 0.05
            }
            if let barcode = query.barcode.flatMap({ Barcode($0) }), result.barcodes.compactMap({ Barcode($0) }).contains(where: barcode.isSameItem) { score = max(score, 0.95) }
            if let catno = query.catalogueNumber, let found = result.catalogueNumber, CatalogueNumber.same(catno, found) {
                score = max(score, min(1, score + 0.2))
            }
            return DiscogsLink(releaseID: result.id, url: url, score: min(1, max(0, score)), title: result.title, year: result.year)
        }
        .sorted { $0.score > $1.score }
    }
}

/// One search result, holding only what Crate may keep. Decoding is lenient (a result with a
/// field of an unexpected kind is read as far as it can be, never dropping the page), and every
/// field not named here — `lowest_price`, `num_for_sale`, `community.want`, … — is never read.
struct DiscogsSearchResult: Equatable, Sendable {
    var id: Int
    /// "Artist - Title".
    var title: String
    var year: String?
    /// Relative in search results ("/release/…"); absolute in release lookups.
    var uri: String?
    var barcodes: [String]
    var catalogueNumber: String?

    static let site = URL(string: "https://www.discogs.com")!

    var pageURL: URL? {
        guard let uri, !uri.isEmpty else { return URL(string: "https://www.discogs.com/release/\(id)") }
        if uri.hasPrefix("http") {
            guard let url = URL(string: uri), url.host?.hasSuffix("discogs.com") == true, url.scheme == "https" else { return nil }
            return url
        }
        guard uri.hasPrefix("/") else { return nil }
        return URL(string: uri, relativeTo: Self.site)?.absoluteURL
    }

    var artistAndTitle: (String, String) {
        guard let range = title.range(of: " - ") else { return ("", title) }
        return (String(title[..<range.lowerBound]), String(title[range.upperBound...]))
    }

    static func decodePage(_ body: Data) throws -> [DiscogsSearchResult] {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let results = object["results"] as? [Any] else { throw DiscogsError.malformedResponse }
        return results.compactMap { item in
            guard let item = item as? [String: Any], let id = LenientJSON.double(item["id"]).flatMap({ $0.isFinite && $0 >= 1 && $0 < 1e15 ? Int($0) : nil }), let title = LenientJSON.string(item["title"]) else { return nil }
            let year = LenientJSON.string(item["year"]) 
            return DiscogsSearchResult(id: id, title: title, year: year == "0" ? nil : year, uri: LenientJSON.string(item["uri"]),
                                       barcodes: (item["barcode"] as? [Any])?.compactMap(LenientJSON.string) ?? [],
                                       catalogueNumber: LenientJSON.string(item["catno"]))
        }
    }
}
