import Foundation

/// A scrobble Last.fm holds, as `user.getRecentTracks` lists it.
public struct LastFMScrobble: Equatable, Sendable {
    public var artist: String
    public var title: String
    /// Unix seconds (`date.uts`).
    public var at: Int

    public init(artist: String, title: String, at: Int) {
        self.artist = artist
        self.title = title
        self.at = at
    }

    /// The same listen: within a second of its start (both sides keep whole seconds), and the
    /// same artist and track once folded (Last.fm may correct case or punctuation).
    public func matches(_ listen: QueuedListen) -> Bool {
        abs(at - Int(listen.listenedAt.timeIntervalSince1970)) <= 1
            && MusicText.artist(artist) == MusicText.artist(listen.track.artist)
            && MusicText.trackTitle(title) == MusicText.trackTitle(listen.track.title)
    }

    /// The dated entries of a `user.getRecentTracks` answer and its page count. The track playing
    /// now (`@attr.nowplaying`, no date) is no scrobble; a single track comes as an object, not
    /// an array. Nil when the answer is not that shape.
    static func page(_ json: [String: Any]) -> (scrobbles: [LastFMScrobble], totalPages: Int)? {
        guard let recent = json["recenttracks"] as? [String: Any] else { return nil }
        let tracks: [[String: Any]]
        switch recent["track"] {
        case let list as [[String: Any]]: tracks = list
        case let one as [String: Any]: tracks = [one]
        default: tracks = []
        }
        let scrobbles = tracks.compactMap { track -> LastFMScrobble? in
            guard let date = track["date"] as? [String: Any], let at = number(date["uts"]), let name = track["name"] as? String else { return nil }
            let artist = (track["artist"] as? [String: Any]).flatMap { ($0["#text"] ?? $0["name"]) as? String } ?? ""
            return LastFMScrobble(artist: artist, title: name, at: at)
        }
        let attributes = recent["@attr"] as? [String: Any] ?? [:]
        return (scrobbles, max(1, number(attributes["totalPages"]) ?? 1))
    }

    /// Last.fm writes numbers as strings ("1700000000"); accept either.
    private static func number(_ value: Any?) -> Int? {
        switch value {
        case let text as String: return Int(text)
        case let number as Int: return number
        default: return nil
        }
    }
}
