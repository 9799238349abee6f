import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("MusicBrainzClient")
struct MusicBrainzClientTests {
    static func makeClient(_ server: FixtureServer, clock: TestClock = TestClock()) -> MusicBrainzClient {
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        return MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "mailto:test@example.org")
    }

    @Test func searchDecodesGotchasAndScoresOfficialOriginalFirst() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rumoursSearch)])

        let match = try await Self.makeClient(server).findRelease(ReleaseQuery(title: "Rumours", artist: "Fleetwood Mac"))

        let best = try #require(match.best)
        #expect(best.releaseID.rawValue == MusicBrainzFixtures.rumoursReleaseID)
        #expect(best.releaseGroupID?.rawValue == MusicBrainzFixtures.rumoursReleaseGroupID)
        #expect(best.searchScore == 100)  // sent as the string "100"
        #expect(best.label == "Warner Bros. Records")
        #expect(best.year == 1977)
        // Every release with a valid MBID survives, even the sparse one with a malformed score.
        let all = [best] + match.runnersUp
        #expect(all.count == 5)
        let sparse = try #require(all.first { $0.releaseID.rawValue == MusicBrainzFixtures.sparseReleaseID })
        #expect(sparse.searchScore == nil && sparse.artist == "" && sparse.date == nil)
        #expect(all.first { $0.releaseID.rawValue == MusicBrainzFixtures.bootlegReleaseID }?.date == nil)
        // A good exact match: no fuzzy second search.
        #expect(server.requests.count == 1)
    }

    @Test func searchSendsUserAgentAndEscapedQuery() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(#"{"count":0,"offset":0,"releases":[]}"#)])

        _ = try await Self.makeClient(server).findRelease(ReleaseQuery(title: "Lungs", artist: "Florence + the Machine"))

        let requests = server.requests
        #expect(requests.count == 2)  // nothing found → fuzzy search too
        #expect(requests[0].headers["user-agent"] == "Crate/\(CrateVersion.string) ( mailto:test@example.org )")
        #expect(requests[0].queryItem("query") == #"release:"Lungs" AND artist:"Florence + the Machine""#)
        #expect(requests[0].queryItem("fmt") == "json")
        #expect(requests[1].queryItem("query") == #"release:(Lungs~) AND artist:(Florence~ \+~ the~ Machine~)"#)
    }

    @Test func fuzzySearchResultsAreMerged() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release") { request in
            request.queryItem("query")?.contains("~") == true ? .json(MusicBrainzFixtures.rumoursSearch) : .json(#"{"releases":[]}"#)
        }

        let match = try await Self.makeClient(server).findRelease(ReleaseQuery(title: "Rumors", artist: "Fleetwod Mac"))

        #expect(match.best?.releaseID.rawValue == MusicBrainzFixtures.rumoursReleaseID)
    }

    @Test func lookupMapsAlbumAndTracks() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(MusicBrainzFixtures.rumoursReleaseID)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])

        let details = try await Self.makeClient(server).release(MBID(MusicBrainzFixtures.rumoursReleaseID))

        #expect(server.requests.first?.queryItem("inc") == "recordings artist-credits labels release-groups genres tags"
            || server.requests.first?.query?.contains("inc=recordings+artist-credits+labels+release-groups+genres+tags") == true)
        #expect(details.album.title == "Rumours")
        #expect(details.album.artist == "Fleetwood Mac")
        #expect(details.album.year == "1977")
        #expect(details.album.label == "Warner Bros. Records")
        #expect(details.album.genres == ["pop rock", "soft rock"])
        #expect(details.album.musicBrainzReleaseGroupID == MusicBrainzFixtures.rumoursReleaseGroupID)
        #expect(details.tracks.map(\.title) == ["Second Hand News", "Dreams", "Go Your Own Way"])
        #expect(details.tracks.map(\.disc) == [1, 1, 2])
        #expect(details.tracks.map(\.number) == ["A1", "A2", "B1"])
        #expect(details.tracks.map(\.durationMs) == [163000, 257000, 223000])
        let rows = details.makeTracks(albumID: 42)
        #expect(rows.allSatisfy { $0.albumID == 42 })
        #expect(rows[0].recordingID == "0f2f1a43-7a4c-4d1c-8a7b-1b2c3d4e5f60")
    }

    @Test func joinphrasesAndMissingFieldsInLookup() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let id = "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a"
        server.route("/ws/2/release/\(id)", responses: [.json("""
        {"id":"\(id)","title":"Buckingham Nicks","date":"",
         "artist-credit":[{"name":"Lindsey Buckingham","joinphrase":" & "},{"name":"Stevie Nicks","joinphrase":""}],
         "tags":[{"name":"rock","count":2},{"name":"folk","count":5}],
         "media":[{"tracks":[{"title":"Crying in the Night"},{"recording":{"title":"Stephanie"}}]}]}
        """)])

        let details = try await Self.makeClient(server).release(id: id)

        #expect(details.album.artist == "Lindsey Buckingham & Stevie Nicks")
        #expect(details.album.year == nil)
        #expect(details.album.genres == ["folk", "rock"])  // no genres → tags by count
        #expect(details.tracks.map(\.title) == ["Crying in the Night", "Stephanie"])
        #expect(details.tracks.map(\.position) == [1, 2])
    }

    @Test func malformedJSONIsATypedError() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.json(#"{"releases": [ {"id": "#)])
        server.route("/ws/2/release/*", responses: [.text("<html>oops</html>")])

        await #expect(throws: MusicBrainzError.malformedResponse("search: not valid JSON")) {
            try await Self.makeClient(server).searchReleases(lucene: "x")
        }
        await #expect(throws: MusicBrainzError.self) {
            try await Self.makeClient(server).release(MBID(MusicBrainzFixtures.rumoursReleaseID))
        }
    }

    @Test func invalidIdentifierNeverReachesTheServer() async throws {
        let server = try FixtureServer()
        defer { server.stop() }

        await #expect(throws: MusicBrainzError.invalidIdentifier("../etc/passwd")) {
            try await Self.makeClient(server).release(id: "../etc/passwd")
        }
        #expect(server.requests.isEmpty)
    }

    @Test func statusesBecomeTypedErrors() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(MusicBrainzFixtures.rumoursReleaseID)", responses: [.json(MusicBrainzFixtures.notFound, status: 404)])
        server.route("/ws/2/release", responses: [.json(MusicBrainzFixtures.rateLimited, status: 503, headers: [("Retry-After", "1")])])
        let clock = TestClock()
        let client = Self.makeClient(server, clock: clock)

        await #expect(throws: MusicBrainzError.notFound) { try await client.release(MBID(MusicBrainzFixtures.rumoursReleaseID)) }
        await #expect(throws: MusicBrainzError.busy) { try await client.searchReleases(lucene: "x") }
        #expect(server.requests(path: "/ws/2/release").count == 2)  // one automatic retry
        #expect(MusicBrainzError.busy.localizedDescription.contains("busy"))
    }

    /// Scenario 8: a permanent 500 ends in a clear error after the configured attempts.
    @Test func permanentServerErrorIsAClearError() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release", responses: [.text("Internal Server Error", status: 500)])

        await #expect(throws: MusicBrainzError.server(status: 500)) {
            try await Self.makeClient(server).searchReleases(lucene: "x")
        }
        #expect(server.requests.count == 2)
        #expect(MusicBrainzError.server(status: 500).localizedDescription == "MusicBrainz answered with an error (HTTP 500).")
    }
}
