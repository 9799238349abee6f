import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Release-group covers")
struct ReleaseGroupCoversTests {
    @Test func aCoverIsFetchedOnceFollowingTheRedirectAndThenServedFromDisk() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let withArt = try MBID(MusicBrainzArtistFixtures.releaseGroupID(1))
        let without = try MBID(MusicBrainzArtistFixtures.releaseGroupID(2))
        let jpeg = try Data(contentsOf: ImageFixtures.root.appendingPathComponent("covers/cover-00.jpg"))
        server.route("/caa/release-group/\(withArt.rawValue)/front-250", responses: [.redirect(to: "/storage/\(withArt.rawValue)-250.jpg")])
        server.route("/storage/\(withArt.rawValue)-250.jpg", responses: [.data(jpeg)])
        server.route("/caa/release-group/\(without.rawValue)/front-250", responses: [.notFound])
        let directory = try TemporaryDirectory()
        let client = CoverArtClient(http: ResilientHTTPClient(base: CurlHTTPClient(), policy: .coverArtArchive, jitter: { 0 }), baseURL: server.url("/caa"))
        let covers = ReleaseGroupCovers(directory: directory.url, client: client)

        let file = try #require(await covers.cover(for: withArt))
        #expect(try Data(contentsOf: file) == jpeg)
        #expect(await covers.cover(for: without) == nil)
        #expect(await covers.cover(for: without) == nil)
        #expect(server.requests(path: "/caa/release-group/\(without.rawValue)/front-250").count == 1)

        // Offline, the saved one is still there; the other is simply absent.
        let offline = ReleaseGroupCovers(directory: directory.url, client: nil)
        #expect(await offline.cover(for: withArt) == file)
        #expect(offline.savedFile(for: without) == nil)
        #expect(server.requests(path: "/caa/release-group/\(withArt.rawValue)/front-250").count == 1)
    }
}
