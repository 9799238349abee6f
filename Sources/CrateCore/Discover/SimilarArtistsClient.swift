import Foundation

/// An artist ListenBrainz's labs API finds similar to another.
public struct SimilarArtist: Equatable, Sendable {
    public var artistID: MBID
    public var name: String
    public var score: Double
    /// The artist it is similar to (nil when the answer does not say).
    public var reference: MBID?

    public init(artistID: MBID, name: String, score: Double, reference: MBID? = nil) {
        self.artistID = artistID
        self.name = name
        self.score = score
        self.reference = reference
    }
}

/// ListenBrainz labs' similar artists (`GET /similar-artists/json?algorithm=…&artist_mbids=a,b`),
/// all seed artists in one request. Paced like every ListenBrainz request (the host's limiter).
public struct SimilarArtistsClient: Sendable {
    public let baseURL: URL
    let http: HTTPClient
    let userAgent: String
    let timeout: TimeInterval
    /// The session-based algorithm ListenBrainz's own pages use.
    public static let algorithm = "session_based_days_7500_session_300_contribution_3_threshold_10_limit_100_filter_True_skip_30"
    /// Seed artists per request (the URL stays short).
    public static let maxSeeds = 25

    public init(http: HTTPClient, baseURL: URL, userAgent: String = "Crate/\(CrateVersion.string)", timeout: TimeInterval = 10) {
        self.http = http
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// Artists similar to `artists` (at most `maxSeeds` of them), best score first, the seeds
    /// themselves left out. An empty answer is an empty list.
    public func similar(to artists: [MBID]) async throws -> [SimilarArtist] {
        var seen = Set<MBID>()
        let seeds = Array(artists.filter { seen.insert($0).inserted }.prefix(Self.maxSeeds))
        guard !seeds.isEmpty else { return [] }
        let root = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let text = "\(root)/similar-artists/json?algorithm=\(Self.algorithm)&artist_mbids=\(seeds.map(\.rawValue).joined(separator: ","))"
        guard let url = URL(string: text) else { throw ListenBrainzError.network(.invalidURL(root)) }
        let request = HTTPRequest(url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: timeout, maxBodyBytes: 4 << 20)
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPError {
            throw ListenBrainzError.network(error)
        } catch let error as RetryLaterError {
            throw ListenBrainzError.rateLimited(seconds: error.seconds)
        }
        switch response.status {
        case 204: return []
        case 200..<300: break
        case 400: throw ListenBrainzError.badRequest
        case 429: throw ListenBrainzError.rateLimited(seconds: 10)
        default: throw ListenBrainzError.server(status: response.status)
        }
        let artists = try Self.decode(response.body)
        let seedSet = Set(seeds)
        var best: [MBID: SimilarArtist] = [:]
        for artist in artists where !seedSet.contains(artist.artistID) {
            if (best[artist.artistID]?.score ?? -.infinity) < artist.score { best[artist.artistID] = artist }
        }
        return best.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.artistID.rawValue < $1.artistID.rawValue }
    }

    /// A flat list of `{artist_mbid, name, score, reference_mbid?}`, or a list of such lists (one
    /// per seed); an entry without a valid `artist_mbid` is skipped, anything else not a list
    /// is `malformedResponse`.
    static func decode(_ body: Data) throws -> [SimilarArtist] {
        guard let json = try? JSONSerialization.jsonObject(with: body), let list = json as? [Any] else {
            throw ListenBrainzError.malformedResponse("similar artists")
        }
        var entries: [[String: Any]] = []
        for element in list {
            if let entry = element as? [String: Any] { entries.append(entry) }
            if let nested = element as? [Any] { entries.append(contentsOf: nested.compactMap { $0 as? [String: Any] }) }
        }
        return entries.compactMap { entry in
            guard let id = MBID(validating: entry["artist_mbid"] as? String) else { return nil }
            let score = (entry["score"] as? NSNumber)?.doubleValue ?? 0
            return SimilarArtist(artistID: id, name: entry["name"] as? String ?? "", score: score,
                                 reference: MBID(validating: entry["reference_mbid"] as? String))
        }
    }
}
