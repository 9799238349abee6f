import Foundation

/// ListenBrainz (and the MusicBrainz calls of the Crate Wall) in their real shapes and headers
/// (API-NOTES.md): rate-limit headers on every answer, 204 for statistics not computed yet,
/// `{"code":…,"error":…}` errors, a plain-text 429, the batched recording metadata keyed by MBID.
///
/// `ListenBrainzWorld` installs a whole, healthy world on a `FixtureServer`; tests then replace
/// one route to make one signal fail.
public enum ListenBrainzFixtures {
    /// A valid MBID per (namespace, n): namespaces keep the signals' albums apart.
    public static func mbid(_ namespace: Int, _ n: Int) -> String {
        String(format: "%08x-0000-4000-8000-%012x", namespace, n)
    }

    public static func rateLimitHeaders(remaining: Int = 29, resetIn: Int = 7) -> [(String, String)] {
        [("X-RateLimit-Limit", "30"), ("X-RateLimit-Remaining", "\(remaining)"), ("X-RateLimit-Reset-In", "\(resetIn)"),
         ("X-RateLimit-Reset", "\(Int(Date().timeIntervalSince1970) + resetIn)")]
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// `GET /1/stats/…/release-groups` (sitewide and per user share the item shape). Every third
    /// item has no art (`caa_id` null), one item has a broken MBID and is skipped by readers.
    public static func releaseGroupStats(namespace: Int, count: Int, offset: Int = 0, range: String = "this_week", user: String? = nil) -> String {
        var items: [String] = []
        for n in offset..<(offset + count) {
            let art = n % 3 == 2 ? #""caa_id":null,"caa_release_mbid":null"# : #""caa_id":\#(30_000_000_000 + n),"caa_release_mbid":"\#(mbid(namespace + 0x100, n))""#
            items.append(#"{"artist_mbids":["\#(mbid(0xa0, n))"],"artist_name":"Artist \#(namespace)-\#(n)",\#(art),"listen_count":\#(1000 - n),"release_group_mbid":"\#(mbid(namespace, n))","release_group_name":"Album \#(namespace)-\#(n)"}"#)
        }
        items.append(#"{"artist_name":"Broken","release_group_mbid":"not-an-mbid","release_group_name":"Broken"}"#)
        let userPart = user.map { #","user_id":"\#(escape($0))","total_release_group_count":\#(count)"# } ?? ""
        return #"{"payload":{"release_groups":[\#(items.joined(separator: ","))],"offset":\#(offset),"count":\#(count),"range":"\#(range)","from_ts":1700000000,"to_ts":1700600000,"last_updated":1700600000\#(userPart)}}"#
    }

    /// `GET /1/user/{user}/listens`: every listen mapped, some sharing an album; one unmapped.
    public static func listens(namespace: Int, count: Int, user: String = "rob") -> String {
        var items: [String] = []
        for n in 0..<count {
            let album = n / 2  // two listens per album
            items.append(#"{"listened_at":\#(1_700_000_000 - n * 200),"recording_msid":"\#(mbid(0xb0, n))","user_name":"\#(escape(user))","track_metadata":{"artist_name":"Artist \#(namespace)-\#(album)","track_name":"Track \#(n)","release_name":"Album \#(namespace)-\#(album)","additional_info":{"duration_ms":200000},"mbid_mapping":{"recording_mbid":"\#(mbid(0xc0, n))","release_mbid":"\#(mbid(namespace + 0x200, album))","release_group_mbid":"\#(mbid(namespace, album))","artist_mbids":["\#(mbid(0xa0, album))"],"caa_id":\#(40_000_000_000 + album),"caa_release_mbid":"\#(mbid(namespace + 0x200, album))"}}}"#)
        }
        items.append(#"{"listened_at":1600000000,"track_metadata":{"artist_name":"Unmapped","track_name":"Nothing","additional_info":{}}}"#)
        return #"{"payload":{"count":\#(count + 1),"latest_listen_ts":1700000000,"oldest_listen_ts":1600000000,"user_id":"\#(escape(user))","listens":[\#(items.joined(separator: ","))]}}"#
    }

    public static let noListens = #"{"payload":{"count":0,"latest_listen_ts":0,"oldest_listen_ts":0,"user_id":"rob","listens":[]}}"#

    /// `GET /1/explore/fresh-releases/`: albums, EPs and singles mixed, oldest first.
    public static func freshReleases(namespace: Int, count: Int) -> String {
        let types = ["Single", "Album", "EP", "Album", "Broadcast"]
        var items: [String] = []
        for n in 0..<count {
            let day = 1 + (n % 28)
            items.append(#"{"artist_credit_name":"Artist \#(namespace)-\#(n)","artist_mbids":["\#(mbid(0xa0, n))"],"caa_id":\#(n % 4 == 3 ? "null" : "\(50_000_000_000 + n)"),"caa_release_mbid":"\#(mbid(namespace + 0x200, n))","release_date":"2026-11-\#(String(format: "%02d", day))","release_group_mbid":"\#(mbid(namespace, n))","release_group_primary_type":"\#(types[n % types.count])","release_mbid":"\#(mbid(namespace + 0x200, n))","release_name":"Album \#(namespace)-\#(n)","release_tags":["indie"],"listen_count":\#(n)}"#)
        }
        return #"{"payload":{"releases":[\#(items.joined(separator: ","))],"total_count":\#(count)}}"#
    }

    /// `GET /1/cf/recommendation/user/{user}/recording`: recording MBIDs with scores.
    public static func recommendations(count: Int, user: String = "rob") -> String {
        let items = (0..<count).map { #"{"recording_mbid":"\#(mbid(0xd0, $0))","score":\#(String(format: "%.2f", 10 - Double($0) / 100))}"# }
        return #"{"payload":{"count":\#(count),"entity":"recording","last_updated":1700000000,"mbids":[\#(items.joined(separator: ","))],"model_id":"cf-2026","model_url":"https://listenbrainz.org","offset":0,"total_mbid_count":\#(count),"type":"cf","user_name":"\#(escape(user))"}}"#
    }

    /// `GET /1/metadata/recording/?recording_mbids=a,b,…`: keyed by recording; three recordings per
    /// album (recording n belongs to album n / 3 of `namespace`).
    public static func recordingMetadata(for recordings: [String], namespace: Int) -> String {
        var entries: [String] = []
        for recording in recordings {
            guard let n = Int(recording.suffix(12), radix: 16) else { continue }
            let album = n / 3
            entries.append(#""\#(recording)":{"artist":{"name":"Artist \#(namespace)-\#(album)","artist_credit_id":\#(album),"artists":[{"artist_mbid":"\#(mbid(0xa0, album))","name":"Artist \#(namespace)-\#(album)"}]},"recording":{"name":"Track \#(n)","length":200000,"rels":[]},"release":{"album_artist_name":"Artist \#(namespace)-\#(album)","caa_id":\#(60_000_000_000 + album),"caa_release_mbid":"\#(mbid(namespace + 0x200, album))","mbid":"\#(mbid(namespace + 0x200, album))","name":"Album \#(namespace)-\#(album)","release_group_mbid":"\#(mbid(namespace, album))","year":2019}}"#)
        }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// `GET /ws/2/release-group?query=tag:…`: MusicBrainz search shape, some with secondary types.
    public static func releaseGroupSearch(namespace: Int, count: Int, total: Int = 5000, offset: Int = 0) -> String {
        var items: [String] = []
        for n in offset..<(offset + count) {
            let secondary = n % 10 == 9 ? #"["Live"]"# : "[]"
            items.append(#"{"id":"\#(mbid(namespace, n))","type-id":"f529b476-6e62-324f-b0aa-1f3e33d313fc","score":100,"primary-type-id":"f529b476-6e62-324f-b0aa-1f3e33d313fc","count":1,"title":"Album \#(namespace)-\#(n)","first-release-date":"1998","primary-type":"Album","secondary-types":\#(secondary),"artist-credit":[{"name":"Artist \#(namespace)-\#(n)","artist":{"id":"\#(mbid(0xa0, n))","name":"Artist \#(namespace)-\#(n)","sort-name":"Artist"}}],"releases":[],"tags":[{"count":1,"name":"post-rock"}]}"#)
        }
        return #"{"created":"2026-11-23T09:00:00.000Z","count":\#(total),"offset":\#(offset),"release-groups":[\#(items.joined(separator: ","))]}"#
    }

    /// `GET /ws/2/release?release-group=…&inc=recordings`: one release with `tracks` recordings.
    public static func releaseBrowse(group: String, tracks: Int) -> String {
        let items = (0..<tracks).map { #"{"id":"\#(mbid(0xe1, $0))","number":"\#($0 + 1)","position":\#($0 + 1),"title":"Track \#($0 + 1)","length":200000,"recording":{"id":"\#(mbid(0xe0, ($0 + 1) + (Int(group.suffix(12), radix: 16) ?? 0) * 100))","title":"Track \#($0 + 1)","length":200000}}"# }
        return #"{"release-count":1,"release-offset":0,"releases":[{"id":"\#(mbid(0xe2, Int(group.suffix(12), radix: 16) ?? 0))","title":"Album","status":"Official","media":[{"position":1,"format":"CD","track-count":\#(tracks),"tracks":[\#(items.joined(separator: ","))]}]}]}"#
    }

    /// `GET /ws/2/release/{id}?inc=recordings…`: a lookup whose `tracks` recordings are derived from the id.
    public static func releaseLookup(release: String, tracks: Int) -> String {
        // Distinct per release: the namespace and the number of the id.
        let n = (Int(release.prefix(8), radix: 16) ?? 0) * 10_000 + (Int(release.suffix(12), radix: 16) ?? 0)
        let items = (0..<tracks).map { #"{"id":"\#(mbid(0xe3, $0))","number":"\#($0 + 1)","position":\#($0 + 1),"title":"Track \#($0 + 1)","length":200000,"recording":{"id":"\#(mbid(0xe4, ($0 + 1) + n * 100))","title":"Track \#($0 + 1)"}}"# }
        return #"{"id":"\#(release)","title":"Album","status":"Official","artist-credit":[{"name":"Artist"}],"release-group":{"id":"\#(mbid(0xe5, n))","primary-type":"Album","title":"Album"},"media":[{"position":1,"format":"CD","track-count":\#(tracks),"tracks":[\#(items.joined(separator: ","))]}]}"#
    }

    public static let badToken = #"{"code":401,"error":"You need to provide an Authorization header."}"#
    public static let notFoundUser = #"{"code":404,"error":"Cannot find user: nobody"}"#
    public static let tooManyRequests = "You have exceeded your rate limit. See the X-RateLimit-* response headers for more information."
    public static let serviceUnavailable = #"{"code":503,"error":"The service is temporarily unavailable."}"#
}

/// Namespaces of the albums each signal's fixture names (so tests can tell them apart).
public enum WallNamespace {
    public static let history = 0x10
    public static let recent = 0x11
    public static let recommendations = 0x20
    public static let charts = 0x30
    public static let fresh = 0x40
    public static let wildCard = 0x50
}

/// A healthy ListenBrainz + MusicBrainz world on one fixture server: every wall route answers
/// after `latency` seconds with the real shapes and rate-limit headers; feedback POSTs are
/// accepted and counted.
public enum ListenBrainzWorld {
    public static func install(on server: FixtureServer, latency: TimeInterval = 0, user: String = "rob", albums: Int = 120) {
        let headers = ListenBrainzFixtures.rateLimitHeaders()
        server.route("/1/stats/sitewide/release-groups") { request in
            let count = min(Int(request.queryItem("count") ?? "25") ?? 25, albums)
            let offset = Int(request.queryItem("offset") ?? "0") ?? 0
            return .json(ListenBrainzFixtures.releaseGroupStats(namespace: WallNamespace.charts, count: count, offset: offset, range: request.queryItem("range") ?? "this_week"),
                         headers: headers, delay: latency)
        }
        server.route("/1/stats/user/*") { request in
            let count = min(Int(request.queryItem("count") ?? "25") ?? 25, albums)
            return .json(ListenBrainzFixtures.releaseGroupStats(namespace: WallNamespace.history, count: count, user: user), headers: headers, delay: latency)
        }
        server.route("/1/user/*") { request in
            guard request.path.hasSuffix("/listens") else { return .json(ListenBrainzFixtures.notFoundUser, status: 404, headers: headers) }
            let count = min(Int(request.queryItem("count") ?? "25") ?? 25, albums)
            return .json(ListenBrainzFixtures.listens(namespace: WallNamespace.recent, count: count, user: user), headers: headers, delay: latency)
        }
        server.route("/1/explore/fresh-releases/") { _ in
            .json(ListenBrainzFixtures.freshReleases(namespace: WallNamespace.fresh, count: albums), headers: headers, delay: latency)
        }
        server.route("/1/cf/recommendation/user/*") { request in
            let count = min(Int(request.queryItem("count") ?? "25") ?? 25, albums * 3)
            return .json(ListenBrainzFixtures.recommendations(count: count, user: user), headers: headers, delay: latency)
        }
        server.route("/1/metadata/recording/") { request in
            let ids = (request.queryItem("recording_mbids") ?? "").split(separator: ",").map(String.init)
            return .json(ListenBrainzFixtures.recordingMetadata(for: ids, namespace: WallNamespace.recommendations), headers: headers, delay: latency)
        }
        server.route("/1/feedback/recording-feedback", method: "POST") { request in
            guard request.headers["authorization"]?.hasPrefix("Token ") == true else {
                return .json(ListenBrainzFixtures.badToken, status: 401, headers: headers)
            }
            return .json(#"{"status":"ok"}"#, headers: headers)
        }
        server.route("/1/validate-token") { request in
            guard request.headers["authorization"]?.hasPrefix("Token ") == true else {
                return .json(#"{"code":400,"message":"You need to provide an Authorization header.","valid":false}"#, headers: headers)
            }
            return .json(#"{"code":200,"message":"Token valid.","valid":true,"user_name":"\#(user)"}"#, headers: headers)
        }
        server.route("/similar-artists/json") { request in
            let seeds = (request.queryItem("artist_mbids") ?? "").split(separator: ",").map(String.init)
            return .json(SimilarArtistsFixtures.similarArtists(seeds: seeds), headers: headers, delay: latency)
        }
        server.route("/ws/2/release-group") { request in
            let query = request.queryItem("query") ?? ""
            if query.contains("arid:") {
                return .json(SimilarArtistsFixtures.albums(ofArtists: SimilarArtistsFixtures.ids("arid", in: query)), delay: latency)
            }
            if query.contains("rgid:") {
                return .json(SimilarArtistsFixtures.releaseGroups(SimilarArtistsFixtures.ids("rgid", in: query)), delay: latency)
            }
            let limit = min(Int(request.queryItem("limit") ?? "25") ?? 25, 100)
            let offset = Int(request.queryItem("offset") ?? "0") ?? 0
            return .json(ListenBrainzFixtures.releaseGroupSearch(namespace: WallNamespace.wildCard, count: limit, offset: offset), delay: latency)
        }
        server.route("/ws/2/release/*") { request in
            .json(ListenBrainzFixtures.releaseLookup(release: String(request.path.dropFirst("/ws/2/release/".count)), tracks: 3), delay: latency)
        }
        server.route("/ws/2/release") { request in
            guard let group = request.queryItem("release-group") else { return .notFound }
            return .json(ListenBrainzFixtures.releaseBrowse(group: group, tracks: 3), delay: latency)
        }
    }
}
