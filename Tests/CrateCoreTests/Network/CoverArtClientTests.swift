import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("CoverArtClient")
struct CoverArtClientTests {
    static let release = MusicBrainzFixtures.rumoursReleaseID
    static let group = MusicBrainzFixtures.rumoursReleaseGroupID

    static func makeClient(_ server: FixtureServer, validate: @escaping @Sendable (Data) throws -> Void = { try JPEGSignature.validate($0) }) -> CoverArtClient {
        let clock = TestClock()
        let http = ResilientHTTPClient(base: CurlHTTPClient(), limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        return CoverArtClient(http: http, baseURL: server.url("/caa"), validate: validate)
    }

    /// Like the real archive: every endpoint answers 307 to storage, the index JSON too.
    static func serveRelease(_ id: String, on server: FixtureServer, under prefix: String = "release") {
        server.route("/caa/\(prefix)/\(id)", responses: [.redirect(to: "/storage/mbid-\(id)/index.json")])
        server.route("/storage/mbid-\(id)/index.json", responses: [.json(CoverArtFixtures.index(releaseID: id, imageBase: server.url("/caa")))])
        server.route("/caa/img/\(id)/30688716524-500.jpg", responses: [.redirect(to: "/storage/mbid-\(id)/30688716524_thumb500.jpg")])
        server.route("/storage/mbid-\(id)/30688716524_thumb500.jpg", responses: [.data(CoverArtFixtures.jpeg)])
    }

    @Test func followsThe307ChainToTheApprovedFront500() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        Self.serveRelease(Self.release, on: server)

        let result = try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: nil)

        guard case .image(let image) = result else { Issue.record("got \(result)"); return }
        #expect(image.data == CoverArtFixtures.jpeg)
        #expect(!image.fromReleaseGroup)
        #expect(image.sourceURL.path.hasSuffix("30688716524-500.jpg"))
        #expect(!server.requests.contains { $0.path.contains("unapproved") || $0.path.contains("back") })
        #expect(server.requests.allSatisfy { $0.headers["user-agent"]?.hasPrefix("Crate/") == true })
    }

    @Test func notFoundEverywhereIsUnavailable() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/caa/*", responses: [.text("Not Found", status: 404)])

        let result = try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: MBID(Self.group))

        #expect(result == .unavailable)
        #expect(server.requests.map(\.path) == ["/caa/release/\(Self.release)", "/caa/release-group/\(Self.group)"])
        #expect(CoverArtResult.unavailableMessage == "Album art unavailable")
    }

    @Test func fallsBackToTheReleaseGroup() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/caa/release/\(Self.release)", responses: [.text("Not Found", status: 404)])
        Self.serveRelease(Self.group, on: server, under: "release-group")

        let result = try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: MBID(Self.group))

        guard case .image(let image) = result else { Issue.record("got \(result)"); return }
        #expect(image.fromReleaseGroup)
    }

    @Test func releaseWithoutAFrontFallsBackToo() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/caa/release/\(Self.release)", responses: [.json(CoverArtFixtures.index(releaseID: Self.release, imageBase: server.url("/caa"), includeFront: false))])
        Self.serveRelease(Self.group, on: server, under: "release-group")

        let result = try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: MBID(Self.group))

        guard case .image(let image) = result else { Issue.record("got \(result)"); return }
        #expect(image.fromReleaseGroup)
    }

    @Test func malformedIndexIsATypedError() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/caa/release/\(Self.release)", responses: [.json(#"{"images": [tru"#)])

        await #expect(throws: CoverArtError.malformedIndex) {
            try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: nil)
        }
    }

    @Test func nonJPEGBytesAreRejected() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        Self.serveRelease(Self.release, on: server)
        server.route("/storage/mbid-\(Self.release)/30688716524_thumb500.jpg", responses: [.text("<html>not an image</html>")])

        await #expect(throws: CoverArtError.invalidImage("it is not a JPEG or PNG image")) {
            try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: nil)
        }
    }

    @Test func validationHookIsUsed() async throws {
        struct Rejected: Error, LocalizedError { var errorDescription: String? { "too small" } }
        let server = try FixtureServer()
        defer { server.stop() }
        Self.serveRelease(Self.release, on: server)

        await #expect(throws: CoverArtError.invalidImage("too small")) {
            try await Self.makeClient(server, validate: { _ in throw Rejected() }).frontCover(release: MBID(Self.release), releaseGroup: nil)
        }
    }

    @Test func serverErrorIsTypedAfterRetry() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/caa/release/\(Self.release)", responses: [.text("Bad Gateway", status: 502)])

        await #expect(throws: CoverArtError.server(status: 502)) {
            try await Self.makeClient(server).frontCover(release: MBID(Self.release), releaseGroup: nil)
        }
        #expect(server.requests.count == 2)
    }
}
