import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Last.fm: signed scrobbles, now playing, the desktop sign-in, error codes")
struct LastFMClientTests {
    static func client(_ server: FixtureServer, session: String? = "sk1", limiter: RateLimiter? = RateLimiter(clock: SystemNetworkClock())) -> LastFMClient {
        LastFMClient(http: CurlHTTPClient(), baseURL: server.url("/2.0/"), apiKey: "key1", secret: "shh", sessionKey: session, limiter: limiter, timeout: 5)
    }

    static func listens(_ count: Int) -> [QueuedListen] {
        (0..<count).map {
            QueuedListen(id: Int64($0), service: .lastFM, track: ListenTrack(artist: "Can", title: "Track \($0)", release: "Tago Mago", durationMs: 190_500,
                                                                            trackNumber: "\($0 + 1)", recordingID: ListenBrainzFixtures.mbid(1, $0)),
                         listenedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 200))
        }
    }

    @Test func theSignatureIsTheMD5OfSortedParametersAndSecret() {
        // md5("api_keykmethodauth.getTokens"), format never signed.
        #expect(LastFMClient.signature(["method": "auth.getToken", "api_key": "k", "format": "json"], secret: "s") == "fcb68e4c03131d77e8851e889687a441")
    }

    @Test func scrobblesGoFiftyARequestSignedWithTheSession() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/2.0/", method: "POST") { request in
            let form = ListenFixtures.form(request.body)
            if form["method"] == "track.updateNowPlaying" { return .json(ListenFixtures.lastFMNowPlaying) }
            return .json(ListenFixtures.lastFMScrobbles(accepted: form.keys.filter { $0.hasPrefix("timestamp[") }.count))
        }
        let client = Self.client(server)
        try await client.nowPlaying(Self.listens(1)[0].track)
        try await client.submit(Self.listens(60))
        let requests = server.requests(path: "/2.0/")
        let now = ListenFixtures.form(requests[0].body)
        #expect(now["method"] == "track.updateNowPlaying" && now["sk"] == "sk1" && now["artist"] == "Can" && now["duration"] == "190")
        let scrobble = ListenFixtures.form(requests[1].body)
        #expect(scrobble["method"] == "track.scrobble" && scrobble["timestamp[0]"] == "1700000000" && scrobble["track[49]"] == "Track 49")
        #expect(scrobble["timestamp[50]"] == nil && scrobble["mbid[1]"] == ListenBrainzFixtures.mbid(1, 1) && scrobble["album[0]"] == "Tago Mago")
        var signed = scrobble
        let sig = signed.removeValue(forKey: "api_sig")
        #expect(sig == LastFMClient.signature(signed, secret: "shh"))
    }

    @Test func theDesktopSignIn() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/2.0/") { request in
            ListenFixtures.form(request.body)["method"] == "auth.getToken" ? .json(ListenFixtures.lastFMToken) : .json(ListenFixtures.lastFMSession)
        }
        let client = Self.client(server, session: nil)
        #expect(!client.isConfigured && client.hasApplication)
        let token = try await client.requestToken()
        #expect(client.approvalURL(token: token)?.absoluteString == "https://www.last.fm/api/auth/?api_key=key1&token=\(token)")
        let session = try await client.session(token: token)
        #expect(session.key == "d580d57f32848f5dcf574d1ce18d78b2" && session.user == "rob")
        let form = ListenFixtures.form(server.requests(path: "/2.0/")[1].body)
        #expect(form["token"] == token && form["sk"] == nil && form["api_sig"] != nil)
    }

    @Test(arguments: [(9, ListenSubmitError.notAuthorized(.lastFM)), (11, .unavailable(.lastFM)), (16, .unavailable(.lastFM)),
                      (29, .rateLimited(.lastFM, seconds: 60))])
    func errorCodes(code: Int, expected: ListenSubmitError) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // Last.fm sends its errors on 200 as well as on 4xx.
        server.route("/2.0/", responses: [.json(ListenFixtures.lastFMError(code), status: code == 9 ? 403 : 200)])
        let limiter = RateLimiter(clock: SystemNetworkClock())
        await #expect(throws: expected) { try await Self.client(server, limiter: limiter).submit(Self.listens(2)) }
        if code == 29 {
            // Rate limited: no process asks again before the pause is over.
            await #expect(throws: ListenSubmitError.self) { try await Self.client(server, limiter: limiter).submit(Self.listens(1)) }
            #expect(server.requests(path: "/2.0/").count == 1)
        }
    }
}
