import Foundation

/// MusicBrainz's release-group search as genre feeds use it, on top of `ListenBrainzWorld`:
///
/// - `rgid:(a OR b …) AND (tag:…)` (the genre filter) answers the listed groups whose number is
///   not a multiple of 3 — two in three albums of any signal "belong" to any genre;
/// - `arid:(…)` (Seed Expansion) answers albums of `GenreNamespace.seed`;
/// - a tag search answers albums of `GenreNamespace.tags` (with `firstreleasedate`:
///   `GenreNamespace.fresh`) starting at a number derived from the first tag, so two
///   subcategories' answers overlap in part; the tag `nothing-here` has no albums.
///
/// `fault` may answer a query instead (a 503, a truncated body) to make one signal fail.
public enum GenreWorld {
    public static let emptyTag = "nothing-here"

    public static func install(on server: FixtureServer, fault: @escaping @Sendable (String) -> FixtureResponse? = { _ in nil }) {
        ListenBrainzWorld.install(on: server)
        server.route("/ws/2/release-group") { request in
            let query = request.queryItem("query") ?? ""
            if let response = fault(query) { return response }
            let limit = min(Int(request.queryItem("limit") ?? "25") ?? 25, 100)
            let offset = Int(request.queryItem("offset") ?? "0") ?? 0
            if query.hasPrefix("rgid:(") {
                let ids = mbids(in: query).filter { (Int($0.suffix(12), radix: 16) ?? 0) % 3 != 0 }
                return .json(search(ids: Array(ids.prefix(limit)), total: ids.count))
            }
            if query.hasPrefix("arid:(") {
                return .json(search(ids: (offset..<(offset + limit)).map { ListenBrainzFixtures.mbid(GenreNamespace.seed, $0) }, total: 300))
            }
            let tags = self.tags(in: query)
            if tags.contains(emptyTag) { return .json(search(ids: [], total: 0)) }
            let namespace = query.contains("firstreleasedate:") ? GenreNamespace.fresh : GenreNamespace.tags
            let base = start(of: tags.first ?? "")
            return .json(search(ids: (offset..<(offset + limit)).map { ListenBrainzFixtures.mbid(namespace, base + $0) }, total: 2000))
        }
    }

    /// Where a tag's albums start: 0, 10, … 40, so two searches of 50 or more always overlap.
    public static func start(of tag: String) -> Int {
        (tag.unicodeScalars.reduce(0) { $0 + Int($1.value) } % 5) * 10
    }

    /// The tags of a query (`tag:"…"`, backslash escapes removed).
    public static func tags(in query: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(query)
        while let range = rest.range(of: "tag:\"") {
            rest = rest[range.upperBound...]
            var tag = ""
            var escaped = false
            while let c = rest.first {
                rest = rest.dropFirst()
                if escaped { tag.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { break } else { tag.append(c) }
            }
            tags.append(tag)
        }
        return tags
    }

    static func mbids(in query: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        return pattern.matches(in: query, range: NSRange(query.startIndex..., in: query)).compactMap { Range($0.range, in: query).map { String(query[$0]) } }
    }

    /// The search answer for `ids`: every tenth a live album.
    public static func search(ids: [String], total: Int) -> String {
        let items = ids.map { id -> String in
            let n = Int(id.suffix(12), radix: 16) ?? 0
            let ns = Int(id.prefix(8), radix: 16) ?? 0
            let secondary = n % 10 == 9 ? #"["Live"]"# : "[]"
            return #"{"id":"\#(id)","score":100,"title":"Album \#(ns)-\#(n)","first-release-date":"2026-10-01","primary-type":"Album","secondary-types":\#(secondary),"artist-credit":[{"name":"Artist \#(ns)-\#(n)","artist":{"id":"\#(ListenBrainzFixtures.mbid(0xa0, n))","name":"Artist \#(ns)-\#(n)"}}]}"#
        }
        return #"{"created":"2026-11-23T09:00:00.000Z","count":\#(total),"offset":0,"release-groups":[\#(items.joined(separator: ","))]}"#
    }
}

/// Namespaces of the genre fixtures' albums.
public enum GenreNamespace {
    public static let tags = 0x60
    public static let fresh = 0x61
    public static let seed = 0x62
}
