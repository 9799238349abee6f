import Foundation

/// MusicBrainz WS/2: release search with candidate scoring, and release lookup.
///
/// Pacing (1 request per second for all the user's Crate processes) and retries belong to the
/// `HTTPClient` it is given; `MusicBrainzClient.live(settings:limiter:)` wires them.
public final class MusicBrainzClient: Sendable {
    public let baseURL: URL
    /// `Crate/<version> ( <contact> )`, which MusicBrainz requires (an empty one gets a 403).
    public let userAgent: String
    public let scorer: CandidateScorer
    /// Below this, the exact search "found nothing good" and a fuzzy search runs too.
    public let goodEnough: Double
    let http: HTTPClient
    private let timeout: TimeInterval = 10
    private let maxBodyBytes = 4 << 20

    public init(http: HTTPClient, baseURL: URL, contact: String, scorer: CandidateScorer = CandidateScorer(), goodEnough: Double = 0.85) {
        self.http = http
        self.baseURL = baseURL
        self.userAgent = "Crate/\(CrateVersion.string) ( \(contact) )"
        self.scorer = scorer
        self.goodEnough = goodEnough
    }

    /// The client the app uses: libcurl, one retry, and 1 request/second paced by `limiter`
    /// (the environment's, shared with the user's other Crate processes).
    public static func live(settings: Settings, transport: HTTPClient = CurlHTTPClient(), limiter: RateLimiter = .shared) -> MusicBrainzClient {
        let http = ResilientHTTPClient(base: transport, policy: .musicBrainz, limiter: limiter)
        return MusicBrainzClient(http: http, baseURL: settings.endpoints.musicBrainz, contact: settings.musicBrainzContact)
    }

    /// The searches a query's hints allow, most precise first, stopping at the first whose best
    /// candidate scores `goodEnough`: the barcode read on the sleeve (when it is a valid one), the
    /// catalogue number (with the label, then alone if that found nothing), the exact title and
    /// artist, then — for a single or EP with track titles — a recording search, the fuzzy title
    /// and artist, and a recording search last when nothing scored well. Without hints this is the
    /// exact search and, below `goodEnough`, the fuzzy one. Everything found is ranked together,
    /// best first, runners-up kept. See `MusicBrainzClient+SleeveHints.swift`.
    public func findRelease(_ query: ReleaseQuery, limit: Int = 10) async throws -> ReleaseMatch {
        var pool = CandidatePool(query: query, scorer: scorer)
        if let barcode = query.validBarcode {
            pool.add(try await searchReleases(lucene: LuceneQuery.barcode(barcode), limit: limit))
            if pool.bestScore >= goodEnough { return pool.match }
        }
        if let number = query.catalogNumber.map(LuceneQuery.clean), !number.isEmpty {
            let found = try await searchReleases(lucene: LuceneQuery.catalogNumber(number, label: query.label), limit: limit)
            pool.add(found)
            if found.isEmpty, let label = query.label.map(LuceneQuery.clean), !label.isEmpty {
                // The label may be printed differently from MusicBrainz's name for it.
                pool.add(try await searchReleases(lucene: LuceneQuery.catalogNumber(number, label: nil), limit: limit))
            }
            if pool.bestScore >= goodEnough { return pool.match }
        }
        pool.add(try await searchReleases(lucene: LuceneQuery.exactRelease(title: query.title, artist: query.artist), limit: limit))
        if pool.bestScore >= goodEnough { return pool.match }
        let tracksFirst = query.isSingleOrEP && !query.trackTitles.isEmpty
        if tracksFirst {
            pool.add(try await releasesByRecording(query, limit: limit))
            if pool.bestScore >= goodEnough { return pool.match }
        }
        pool.add(try await searchReleases(lucene: LuceneQuery.fuzzyRelease(title: query.title, artist: query.artist), limit: limit))
        if pool.bestScore >= goodEnough || tracksFirst || query.trackTitles.isEmpty { return pool.match }
        pool.add(try await releasesByRecording(query, limit: limit))
        return pool.match
    }

    /// Seconds left of a pause MusicBrainz asked for (0 if none): lets a scan stop before it
    /// spends a paid identification on a photo whose search could not be sent anyway.
    public func pendingWait() async -> TimeInterval {
        await http.pendingDeferral(for: baseURL)
    }

    /// One search request, unscored. `lucene` must already be escaped (see `LuceneQuery`).
    public func searchReleases(lucene: String, limit: Int = 10) async throws -> [ReleaseCandidate] {
        let limit = min(max(limit, 1), 100)
        let url = try makeURL(path: "release", query: "query=\(Self.formEncode(lucene))&fmt=json&limit=\(limit)")
        let body = try await get(url)
        do {
            return try JSONDecoder().decode(MBSearchResponse.self, from: body).releases.compactMap(ReleaseCandidate.init)
        } catch {
            throw MusicBrainzError.malformedResponse("search: \(Self.describe(error))")
        }
    }

    /// `GET /release/{mbid}?inc=recordings+artist-credits+labels+release-groups+genres+tags`.
    public func release(_ id: MBID) async throws -> ReleaseDetails {
        let url = try makeURL(path: "release/\(id.rawValue)", query: "inc=recordings+artist-credits+labels+release-groups+genres+tags&fmt=json")
        let body = try await get(url)
        do {
            return ReleaseDetails(try JSONDecoder().decode(MBRelease.self, from: body), id: id)
        } catch {
            throw MusicBrainzError.malformedResponse("lookup: \(Self.describe(error))")
        }
    }

    /// Lookup by an identifier from elsewhere (a model, a URL); validated before it nears a URL.
    public func release(id: String) async throws -> ReleaseDetails {
        guard let mbid = MBID(validating: id) else { throw MusicBrainzError.invalidIdentifier(id) }
        return try await release(mbid)
    }
}

// MARK: - Shared with the other MusicBrainz files

extension MusicBrainzClient {
    func getBody(_ url: URL) async throws -> Data { try await get(url) }
    func releaseGroupURL(path: String, query: String) throws -> URL { try makeURL(path: path, query: query) }
    static func encodeQueryValue(_ text: String) -> String { formEncode(text) }
}

// MARK: - Shared by the requests

extension MusicBrainzClient {
    func get(_ url: URL) async throws -> Data {
        let request = HTTPRequest(url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: timeout, maxBodyBytes: maxBodyBytes)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw MusicBrainzError.network(error)
        } catch let error as RetryLaterError {
            throw MusicBrainzError.mustWait(seconds: error.seconds)
        }
        switch response.status {
        case 200..<300: return response.body
        case 404: throw MusicBrainzError.notFound
        case 403: throw MusicBrainzError.refused
        case 429, 503: throw MusicBrainzError.busy
        default: throw MusicBrainzError.server(status: response.status)
        }
    }

    func makeURL(path: String, query: String) throws -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: "\(base)/\(path)?\(query)") else { throw MusicBrainzError.network(.invalidURL(base)) }
        return url
    }

    /// Percent-encodes everything but unreserved characters: a literal `+` ("Florence + the
    /// Machine") would otherwise arrive as a space.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: return "not valid JSON"
        case DecodingError.keyNotFound(let key, _): return "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context): return "unexpected type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "unreadable"
        }
    }
}
