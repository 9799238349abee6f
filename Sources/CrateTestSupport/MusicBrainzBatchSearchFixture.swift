import CrateCore
import Foundation

/// A MusicBrainz release search over a fixed set of releases, answering the batched Lucene
/// queries of a Discogs import in MusicBrainz's JSON shape (`count`, `offset`, `releases` with
/// `label-info`, `release-group`, `artist-credit`): `catno:"…" OR catno:"…"` (catalogue numbers
/// compared without spaces and separators, as MusicBrainz's index does), `barcode:… OR …`, and
/// `(release:"…" AND artist:"…") OR …` (case and accents folded). `limit` and `offset` page it.
public final class MusicBrainzBatchSearchFixture: @unchecked Sendable {
    private var byCatalogue: [String: [[String: Any]]] = [:]
    private var byBarcode: [String: [[String: Any]]] = [:]
    private var byTitle: [String: [[String: Any]]] = [:]
    private let lock = NSLock()
    private var served = 0
    /// Every n-th search answers 503 with `Retry-After: 1` (the client's one retry gets through).
    public var busyEvery: Int?

    public init(records: [DiscogsImportFixtures.Record]) {
        for record in records {
            for release in DiscogsImportFixtures.releases(for: record) {
                for info in release["label-info"] as? [[String: Any]] ?? [] {
                    if let key = (info["catalog-number"] as? String).flatMap(CatalogueNumber.key) { byCatalogue[key, default: []].append(release) }
                }
                if let barcode = release["barcode"] as? String { byBarcode[barcode, default: []].append(release) }
                let artist = ((release["artist-credit"] as? [[String: Any]])?.first?["name"] as? String) ?? ""
                byTitle[Self.titleKey(release["title"] as? String ?? "", artist), default: []].append(release)
            }
        }
    }

    /// Searches answered so far (503s included).
    public var requestCount: Int { lock.withLock { served } }

    public func serve(on server: FixtureServer) {
        server.route("/ws/2/release") { [self] request in answer(request) }
    }

    public func answer(_ request: RecordedRequest) -> FixtureResponse {
        let number = lock.withLock { served += 1; return served }
        if let every = busyEvery, number % every == 0 {
            return .json(#"{"error":"Your requests are exceeding the allowable rate limit."}"#, status: 503, headers: [("Retry-After", "1")])
        }
        guard let query = request.queryItem("query") else { return .json(#"{"error":"no query"}"#, status: 400) }
        var found: [[String: Any]] = []
        var seen = Set<String>()
        func add(_ releases: [[String: Any]]?) {
            for release in releases ?? [] where seen.insert(release["id"] as? String ?? "").inserted { found.append(release) }
        }
        for phrase in Self.captures(#"catno:"((?:[^"\\]|\\.)*)""#, in: query) {
            add(CatalogueNumber.key(Self.unescape(phrase[0])).flatMap { byCatalogue[$0] })
        }
        for digits in Self.captures(#"barcode:(\d+)"#, in: query) { add(byBarcode[digits[0]]) }
        for pair in Self.captures(#"release:"((?:[^"\\]|\\.)*)" AND artist:"((?:[^"\\]|\\.)*)""#, in: query) {
            add(byTitle[Self.titleKey(Self.unescape(pair[0]), Self.unescape(pair[1]))])
        }
        let offset = Int(request.queryItem("offset") ?? "0") ?? 0
        let limit = Int(request.queryItem("limit") ?? "25") ?? 25
        let page = Array(found.dropFirst(offset).prefix(limit))
        let object: [String: Any] = ["created": "2026-11-28T00:00:00.000Z", "count": found.count, "offset": offset, "releases": page]
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return .json(String(decoding: data, as: UTF8.self))
    }

    static func titleKey(_ title: String, _ artist: String) -> String {
        MusicText.fold(title) + "\u{1F}" + MusicText.fold(artist)
    }

    static func unescape(_ text: String) -> String {
        var out = "", escaped = false
        for character in text {
            if escaped || character != "\\" { out.append(character); escaped = false } else { escaped = true }
        }
        return out
    }

    static func captures(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in Range(match.range(at: index), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}
