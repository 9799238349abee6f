import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Track list lookup")
struct TrackListLookupTests {
    @Test func anAlbumWithoutTracksIsLookedUpAndSaved() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/ws/2/release/\(MusicBrainzFixtures.rumoursReleaseID)", responses: [.json(MusicBrainzFixtures.rumoursLookup)])
        let database = try AppDatabase.inMemory()
        let album = try database.saveScan(of: Album(musicBrainzReleaseID: MusicBrainzFixtures.rumoursReleaseID, title: "Rumours", artist: "Fleetwood Mac"), method: .vision).album
        let clock = TestClock()
        let http = ResilientHTTPClient(base: CurlHTTPClient(), limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        let client = MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "tests@crate.dev")
        let tracks = try await TrackListProvider.musicBrainz(client, database: database).lookup(album)
        #expect(!tracks.isEmpty)
        #expect(try database.tracks(forAlbum: album.id!) == tracks)
    }

    @Test func anAlbumWithoutAReleaseIDHasNoTrackList() async throws {
        let database = try AppDatabase.inMemory()
        let album = try database.saveScan(of: Album(title: "Unknown", artist: "Nobody"), method: .manual).album
        let client = MusicBrainzClient(http: CurlHTTPClient(), baseURL: URL(string: "http://127.0.0.1:9")!, contact: "x")
        await #expect(throws: PlaybackError.self) {
            _ = try await TrackListProvider.musicBrainz(client, database: database).lookup(album)
        }
    }
}
