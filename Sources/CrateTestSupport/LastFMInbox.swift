import CrateCore
import Foundation
import Synchronization

/// Last.fm's API 2.0 on a `FixtureServer` (path `/2.0/`) that keeps what it scrobbled, in its
/// real shapes: `track.scrobble` stores each scrobble, and a repeat is stored (and counted) again
/// as Last.fm would count it; `user.getRecentTracks` lists them newest first, paged, with a
/// track playing now on top (no date); `user.getInfo` names the session's user. It can be told
/// to fail (503), hang, or take a batch and lose the answer (502 or none at all).
public final class LastFMInbox: Sendable {
    public enum Mode: Sendable { case accept, unavailable, hang, acceptThenBadGateway, acceptThenHang }
    public enum RecentMode: Sendable { case answer, unavailable, hang, offline }
    public static let user = "rob"
    public let mode = Mutex(Mode.accept)
    public let recentMode = Mutex(RecentMode.answer)
    /// Every scrobble taken, in arrival order.
    public let scrobbles = Mutex<[LastFMScrobble]>([])
    /// Shown as playing now at the top of the recent tracks.
    public let playingNow = Mutex<String?>("Something Else")

    public init() {}

    /// Scrobbles held more than once (each would count twice at Last.fm).
    public var duplicates: Int {
        let all = scrobbles.withLock { $0 }
        return all.count - Set(all.map { "\($0.at) \($0.artist) \($0.title)" }).count
    }

    public func install(on server: FixtureServer) {
        server.route("/2.0/") { [self] request in
            let fields = request.method == "GET" ? Self.query(request) : ListenFixtures.form(request.body)
            switch fields["method"] {
            case "track.scrobble": return scrobble(fields)
            case "track.updateNowPlaying": return .json(ListenFixtures.lastFMNowPlaying)
            case "user.getRecentTracks": return recent(fields)
            case "user.getInfo": return .json(#"{"user":{"name":"\#(Self.user)","realname":"","playcount":"1234","country":"None","type":"user"}}"#)
            default: return .json(ListenFixtures.lastFMError(3, "Invalid Method - No method with that name in this package"), status: 400)
            }
        }
    }

    private func scrobble(_ fields: [String: String]) -> FixtureResponse {
        let mode = self.mode.withLock { $0 }
        switch mode {
        case .unavailable: return .text("<html><body>503 Service Unavailable</body></html>", status: 503)
        case .hang: return .never
        case .accept, .acceptThenBadGateway, .acceptThenHang: break
        }
        var taken: [LastFMScrobble] = []
        for i in 0..<50 {
            guard let artist = fields["artist[\(i)]"], let title = fields["track[\(i)]"], let at = fields["timestamp[\(i)]"].flatMap({ Int($0) }) else { break }
            taken.append(LastFMScrobble(artist: artist, title: title, at: at))
        }
        scrobbles.withLock { $0 += taken }
        switch mode {
        case .acceptThenBadGateway: return .text("<html><body>502 Bad Gateway</body></html>", status: 502)
        case .acceptThenHang: return .never
        default: return .json(ListenFixtures.lastFMScrobbles(accepted: taken.count))
        }
    }

    private func recent(_ fields: [String: String]) -> FixtureResponse {
        switch recentMode.withLock({ $0 }) {
        case .unavailable: return .text("<html><body>503 Service Unavailable</body></html>", status: 503)
        case .hang: return .never
        case .offline: return .json(ListenFixtures.lastFMError(11, "Service Offline - This service is temporarily offline. Try again later."))
        case .answer: break
        }
        guard fields["user"]?.lowercased() == Self.user else { return .json(ListenFixtures.lastFMError(6, "User not found"), status: 404) }
        let from = fields["from"].flatMap { Int($0) } ?? 0, to = fields["to"].flatMap { Int($0) } ?? Int.max
        let limit = max(1, min(200, fields["limit"].flatMap { Int($0) } ?? 50)), page = max(1, fields["page"].flatMap { Int($0) } ?? 1)
        let held = scrobbles.withLock { $0 }.filter { $0.at >= from && $0.at <= to }.sorted { $0.at > $1.at }
        let pages = max(1, (held.count + limit - 1) / limit)
        var tracks: [[String: Any]] = held.dropFirst((page - 1) * limit).prefix(limit).map { scrobble in
            Self.track(artist: scrobble.artist, title: scrobble.title, extra: ["date": ["uts": String(scrobble.at), "#text": "14 Nov 2023, 22:13"]])
        }
        if page == 1, let now = playingNow.withLock({ $0 }) {
            tracks.insert(Self.track(artist: "Another Artist", title: now, extra: ["@attr": ["nowplaying": "true"]]), at: 0)
        }
        let attributes = ["user": Self.user, "totalPages": String(pages), "page": String(page), "perPage": String(limit), "total": String(held.count)]
        // Last.fm gives a single track as an object, not a one-element array.
        let list: Any = tracks.count == 1 ? tracks[0] : tracks
        let body = ["recenttracks": ["track": list, "@attr": attributes]]
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        return .json(String(decoding: data, as: UTF8.self))
    }

    private static func track(artist: String, title: String, extra: [String: Any]) -> [String: Any] {
        var track: [String: Any] = [
            "artist": ["mbid": "", "#text": artist], "streamable": "0", "mbid": "", "album": ["mbid": "", "#text": ""], "name": title,
            "image": [["size": "small", "#text": ""]], "url": "https://www.last.fm/music/_/_",
        ]
        track.merge(extra) { $1 }
        return track
    }

    private static func query(_ request: RecordedRequest) -> [String: String] {
        var components = URLComponents()
        components.percentEncodedQuery = request.query
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }
}
