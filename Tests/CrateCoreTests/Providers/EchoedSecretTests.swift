import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Secrets echoed in provider answers")
struct EchoedSecretTests {
    /// Bug: a key echoed in a successful answer was kept. Echoed in an identification it became
    /// the artist, was printed, stored and sent to MusicBrainz; echoed in a review it was stored.
    /// Every answer is now scrubbed of every known secret (provider keys, ListenBrainz and
    /// Discogs tokens) before anything reads it.
    @Test("A key or token echoed in an identification or a review never reaches MusicBrainz, the library or the output")
    func echoedSecretsAreScrubbed() async throws {
        let key = "sk-ant-ECHO-\(UUID().uuidString)"
        let token = "lb-token-\(UUID().uuidString)"
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let database = try AppDatabase.open(paths: directory.paths)
        let identification = #"{"artist":"Fleetwood Mac \#(key)","album":"Rumours\#(token)","year":"1977","label":null,"readable_text":"\#(key)","text_confidence":"high","search_needed":false,"confidence":0.95}"#
        let review = ProviderFixtures.rumoursReview.replacingOccurrences(of: "The craft never slips.", with: "The craft never slips. \(key)")
        server.route("/v1/messages") { request in
            let body = String(decoding: request.body, as: UTF8.self)
            return .json(ProviderFixtures.anthropicMessage(body.contains("Identify the album") ? identification : review, model: "claude-\(key)"))
        }
        let id = MusicBrainzFixtures.rumoursReleaseID
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])
        server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        server.route("/caa/*", responses: [.text("Not Found", status: 404)])
        let environment = AppEnvironment(paths: directory.paths, variables: [
            "CRATE_PROVIDER": "anthropic", "CRATE_ANTHROPIC_API_KEY": key, "CRATE_LISTENBRAINZ_TOKEN": token,
            "CRATE_ANTHROPIC_URL": server.baseURL.absoluteString,
            "CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString,
            "CRATE_COVERART_URL": server.url("/caa").absoluteString,
            "CRATE_SECRET_SERVICE": "off",
        ], database: database, transport: CurlHTTPClient(), limiter: RateLimiter(clock: TestClock()))

        let result = try await environment.services().makeScanPipeline()
            .scan(file: ImageFixtures.url("photos/cover-00-photo-0.jpg")) { _ in }

        #expect(server.requests(path: "/v1/messages").first?.headers["x-api-key"] == key, "the key was really used")
        #expect(!result.entry.album.artist.contains(key) && !result.entry.album.title.contains(token))
        let stored = try #require(result.review)
        #expect(!stored.summary.contains(key))
        for request in server.requests where request.path.hasPrefix("/ws/2") {
            let query = (request.query ?? "").removingPercentEncoding ?? ""
            #expect(!query.contains(key) && !query.contains(token), "\(query)")
        }
        let library = try Data(contentsOf: directory.paths.databaseURL) + ((try? Data(contentsOf: URL(fileURLWithPath: directory.paths.databaseURL.path + "-wal"))) ?? Data())
        #expect(library.range(of: Data(key.utf8)) == nil && library.range(of: Data(token.utf8)) == nil)
    }
}
