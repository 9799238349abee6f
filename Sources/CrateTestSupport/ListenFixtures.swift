import Foundation

/// ListenBrainz's `submit-listens` and Last.fm's API 2.0 answers in their real shapes: ListenBrainz
/// `{"status":"ok"}` and `{"code":…,"error":…}` with rate-limit headers; Last.fm JSON with
/// `{"error":N,"message":…}` for failures (on HTTP 200 or 4xx alike).
public enum ListenFixtures {
    public static let listenBrainzOK = #"{"status":"ok"}"#
    public static let listenBrainzInvalidToken = #"{"code":401,"error":"Invalid authorization token."}"#
    public static let listenBrainzRateLimited = #"{"code":429,"error":"Too many requests. Please wait and try again."}"#
    public static let listenBrainzUnavailable = #"{"code":503,"error":"The server is temporarily unavailable."}"#
    public static let listenBrainzBadRequest = #"{"code":400,"error":"JSON document must contain track_name in track_metadata."}"#

    public static func lastFMError(_ code: Int, _ message: String = "Error") -> String {
        #"{"error":\#(code),"message":"\#(message)","links":[]}"#
    }

    public static let lastFMNowPlaying = ##"{"nowplaying":{"artist":{"corrected":"0","#text":"Artist"},"track":{"corrected":"0","#text":"Track"},"ignoredMessage":{"code":"0","#text":""},"album":{"corrected":"0","#text":""},"albumArtist":{"corrected":"0","#text":""}}}"##

    public static func lastFMScrobbles(accepted: Int) -> String {
        let one = ##"{"artist":{"corrected":"0","#text":"Artist"},"ignoredMessage":{"code":"0","#text":""},"albumArtist":{"corrected":"0","#text":""},"timestamp":"1700000000","album":{"corrected":"0","#text":"Album"},"track":{"corrected":"0","#text":"Track"}}"##
        return #"{"scrobbles":{"scrobble":[\#(Array(repeating: one, count: accepted).joined(separator: ","))],"@attr":{"ignored":0,"accepted":\#(accepted)}}}"#
    }

    public static let lastFMToken = #"{"token":"cf45fe5a3e3cebe168480a086d7fe481"}"#
    public static let lastFMSession = #"{"session":{"subscriber":0,"name":"rob","key":"d580d57f32848f5dcf574d1ce18d78b2"}}"#

    /// The form fields of a Last.fm POST body.
    public static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    /// The listens of a ListenBrainz `submit-listens` body: (listen_type, [(listened_at, track_name)]).
    public static func listens(_ body: Data) -> (type: String, listens: [(at: Int?, track: String, info: [String: Any])]) {
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return ("", []) }
        let payload = json["payload"] as? [[String: Any]] ?? []
        return (json["listen_type"] as? String ?? "", payload.map { listen in
            let metadata = listen["track_metadata"] as? [String: Any] ?? [:]
            return (listen["listened_at"] as? Int, metadata["track_name"] as? String ?? "", metadata["additional_info"] as? [String: Any] ?? [:])
        })
    }
}
