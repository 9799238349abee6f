import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("crate listens and crate spin", .tags(.process))
struct ListensCommandTests {

    @Test func queuedListensAreSentAndCounted() async throws {
        let runner = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = ListenInbox()
        inbox.install(on: server)
        let database = try AppDatabase.open(paths: runner.paths)
        for n in 0..<3 {
            try database.queueListen(ListenTrack(artist: "Band", title: "Song \(n)", durationMs: 200_000),
                                     listenedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 200), services: [.listenBrainz])
        }
        let env = ["CRATE_LISTENS": "listenbrainz", "CRATE_LISTENBRAINZ_TOKEN": "tok", "CRATE_LISTENBRAINZ_URL": server.baseURL.absoluteString]
        inbox.mode.withLock { $0 = .unauthorized }
        let refused = try await runner.run(["listens", "send"], extraEnvironment: env)
        #expect(refused.status == 1 && refused.stderr.contains("token"))
        #expect(!refused.stderr.contains("tok\n") && !refused.stdout.contains("Token tok"))
        inbox.mode.withLock { $0 = .accept }
        let sent = try await runner.run(["listens", "send", "--json"], extraEnvironment: env)
        #expect(sent.status == 0 && sent.stdout.contains("\"sent\" : 3"), "\(sent.stdout)\(sent.stderr)")
        let status = try await runner.run(["listens", "status", "--json"], extraEnvironment: env)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        let lb = try #require(reports.first { $0["service"] as? String == "listenbrainz" })
        #expect(lb["sent"] as? Int == 3 && lb["queued"] as? Int == 0 && lb["enabled"] as? Bool == true && lb["configured"] as? Bool == true)
        #expect(inbox.accepted.withLock { $0.count } == 3)
    }

    /// A process killed after Last.fm took two of three listens left them marked: `crate listens
    /// send` looks them up (asking `user.getInfo` whose session it is) and sends only the third.
    @Test func lastFMListensAnEarlierProcessMayHaveSentAreLookedUpFirst() async throws {
        let runner = try CLIRunner()
        let server = try FixtureServer()
        defer { server.stop() }
        let inbox = LastFMInbox()
        inbox.install(on: server)
        let database = try AppDatabase.open(paths: runner.paths)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for n in 0..<3 {
            try database.queueListen(ListenTrack(artist: "Band", title: "Song \(n)", durationMs: 200_000),
                                     listenedAt: start.addingTimeInterval(Double(n) * 200), services: [.lastFM])
        }
        let gone = BatchLeaseOwner(host: "elsewhere", processID: 1, startTime: 0, token: "killed")
        let batch = try database.claimListens(service: .lastFM, limit: 50, owner: gone, at: start)
        #expect(try database.markListensSending(ids: batch.map(\.id), owner: gone, at: start))
        inbox.scrobbles.withLock { $0 = [LastFMScrobble(artist: "Band", title: "Song 0", at: 1_700_000_000), LastFMScrobble(artist: "band", title: "song 1", at: 1_700_000_201)] }
        let env = ["CRATE_LISTENS": "lastfm", "CRATE_LASTFM_API_KEY": "key1", "CRATE_LASTFM_API_SECRET": "shh", "CRATE_LASTFM_SESSION_KEY": "sk1",
                   "CRATE_LASTFM_URL": server.url("/2.0/").absoluteString]
        let sent = try await runner.run(["listens", "send", "--json"], extraEnvironment: env)
        #expect(sent.status == 0 && sent.stdout.contains("\"sent\" : 3") && sent.stdout.contains("\"already_there\" : 2"), "\(sent.stdout)\(sent.stderr)")
        #expect(inbox.scrobbles.withLock { $0.map(\.title) } == ["Song 0", "song 1", "Song 2"] && inbox.duplicates == 0)
    }

    @Test func spinWalksASideAndWaitsForTheFlip() async throws {
        let runner = try CLIRunner()
        let database = try AppDatabase.open(paths: runner.paths)
        let entry = try database.saveScan(of: Album(title: "LP", artist: "Band"), method: .manual)
        let id = try #require(entry.album.id)
        try database.replaceTracks([("A1", 60_000), ("A2", 20_000), ("B1", 60_000)].enumerated().map {
            Track(albumID: id, position: $0.offset + 1, number: $0.element.0, title: "Song \($0.element.0)", durationMs: $0.element.1)
        }, forAlbum: id)
        let sideA = try await runner.run(["spin", "\(id)", "--simulate"])
        #expect(sideA.status == 0, "\(sideA.stderr)")
        #expect(sideA.stdout.contains("▶ A1 Song A1") && sideA.stdout.contains("✓ listened: Song A1") && !sideA.stdout.contains("listened: Song A2"))
        #expect(sideA.stdout.contains("--side B") && !sideA.stdout.contains("B1"))
        let sideB = try await runner.run(["spin", "\(id)", "--side", "B", "--simulate"])
        #expect(sideB.stdout.contains("✓ listened: Song B1"))
        let wrong = try await runner.run(["spin", "\(id)", "--side", "C", "--simulate"])
        #expect(wrong.status == 1 && wrong.stderr.contains("A, B"))
    }
}
