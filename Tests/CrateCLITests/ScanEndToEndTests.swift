import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// `crate scan` against a loopback server that plays Anthropic, MusicBrainz and the Cover Art
/// Archive: the whole pipeline, the real binary, no internet.
@Suite("crate scan end to end", .tags(.process, .slow))
struct ScanEndToEndTests {
    static let identification = #"{"artist":"Fleetwood Mac","album":"Rumours","year":"1977","label":null,"readable_text":"FLEETWOOD MAC RUMOURS","text_confidence":"high","search_needed":false,"confidence":0.93}"#

    static func serve(_ server: FixtureServer, cover: Data, reviewStatus: Int = 200) {
        let id = MusicBrainzFixtures.rumoursReleaseID
        server.route("/v1/messages") { request in
            // The identification call carries the photo; the review call never does.
            let body = String(decoding: request.body, as: UTF8.self)
            if body.contains("\"image\"") {
                return .json(ProviderFixtures.anthropicMessage(identification))
            }
            return reviewStatus == 200
                ? .json(ProviderFixtures.anthropicMessage(ProviderFixtures.rumoursReview))
                : .json(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, status: reviewStatus)
        }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])
        server.route("/ws/2/release/\(id)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        server.route("/caa/release/\(id)", responses: [.redirect(to: "/storage/\(id)/index.json")])
        server.route("/storage/\(id)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: id, imageBase: server.url("/caa")))])
        server.route("/caa/img/\(id)/30688716524-500.jpg", responses: [.redirect(to: "/storage/\(id)/front.jpg")])
        server.route("/storage/\(id)/front.jpg", responses: [.data(cover)])
    }

    static func environment(_ server: FixtureServer, key: String = "sk-test") -> [String: String] {
        [
            "CRATE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": key,
            "CRATE_PROVIDER_URL": server.baseURL.absoluteString,
            "CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString,
            "CRATE_COVERART_URL": server.url("/caa").absoluteString,
            "CRATE_DATA_FILES": ScanCommandTests.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data").path,
        ]
    }

    @Test func aNewAlbumIsIdentifiedWithArtworkTracksAndReview() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        Self.serve(server, cover: try Data(contentsOf: ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")))
        let cli = try CLIRunner()
        let canary = "sk-ant-CANARY-\(UUID().uuidString)"
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", photo], extraEnvironment: Self.environment(server, key: canary))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "identified")
        #expect(object["tier"] as? String == "vision")
        let album = try #require(object["album"] as? [String: Any])
        #expect(album["musicbrainz_release_id"] as? String == MusicBrainzFixtures.rumoursReleaseID)
        #expect((object["artwork"] as? [String: Any])?["status"] as? String == "ok")
        // The library stores artwork relative to the cache; the report resolves it to a real file.
        let artworkPath = try #require((object["artwork"] as? [String: Any])?["path"] as? String)
        #expect(artworkPath.hasPrefix("/") && FileManager.default.fileExists(atPath: artworkPath))
        let review = try #require(object["review"] as? [String: Any])
        #expect(review["recommendation"] as? String == "Essential Classic")
        #expect(review["prompt_version"] as? String == "review-v1")

        // The photo goes to the provider once; the review request carries no image.
        let calls = server.requests(path: "/v1/messages")
        #expect(calls.count == 2)
        #expect(calls.filter { String(decoding: $0.body, as: UTF8.self).contains("\"image\"") }.count == 1)
        #expect(server.requests(path: "/ws/2/release").first?.headers["user-agent"]?.hasPrefix("Crate/") == true)

        // The canary key is nowhere on disk or in the output.
        #expect(!result.stdout.contains(canary) && !result.stderr.contains(canary))
        let leaks = try FileManager.default.subpathsOfDirectory(atPath: cli.root.path).filter { path in
            let url = cli.root.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else { return false }
            return data.range(of: Data(canary.utf8)) != nil
        }
        #expect(leaks.isEmpty, "canary found in \(leaks)")

        // History shows it; the photo itself was never stored.
        let history = try await cli.run(["history", "--json"])
        #expect(history.stdout.contains("Rumours"))
        let stored = try FileManager.default.subpathsOfDirectory(atPath: cli.root.path)
        #expect(!stored.contains { $0.hasSuffix("cover-00-photo-0.jpg") })
    }

    @Test func aFailedReviewStillSavesTheAlbum() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        Self.serve(server, cover: try Data(contentsOf: ScanCommandTests.fixtures.appendingPathComponent("covers/cover-00.jpg")), reviewStatus: 529)
        let cli = try CLIRunner()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", photo], extraEnvironment: Self.environment(server))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["artwork"] as? [String: Any])?["status"] as? String == "ok")
        let review = try #require(object["review"] as? [String: Any])
        #expect(review["status"] as? String == "unavailable")
        #expect((review["message"] as? String)?.contains("Tip: scan this album again") == true)
    }

    @Test func aWrongKeyPointsToSettings() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/v1/messages", responses: [.json(ProviderFixtures.anthropicAuthError, status: 401)])
        let cli = try CLIRunner()
        let photo = ScanCommandTests.fixtures.appendingPathComponent("photos/cover-00-photo-0.jpg").path
        let result = try await cli.run(["scan", "--json", photo], extraEnvironment: Self.environment(server))
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "provider_key")
        #expect((error["message"] as? String)?.contains("Unable to identify") == false)
    }
}
