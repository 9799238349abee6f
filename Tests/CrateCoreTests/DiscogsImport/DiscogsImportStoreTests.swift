@testable import CrateCore
import CrateTestSupport
import Foundation
import Testing

@Suite("Discogs import in the window")
@MainActor
struct DiscogsImportStoreTests {
    @Test func aCSVImportShowsProgressThenWhatItDid() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let records = DiscogsImportFixtures.collection(count: 80, seed: 2)
        MusicBrainzBatchSearchFixture(records: records).serve(on: server)
        let clock = TestClock()
        let http = ResilientHTTPClient(base: CurlHTTPClient(), policy: .musicBrainz, limiter: RateLimiter(clock: clock), clock: clock, jitter: { 0 })
        let musicBrainz = MusicBrainzClient(http: http, baseURL: server.url("/ws/2"), contact: "mailto:test@example.org")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("discogs-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try DiscogsImportFixtures.csv(records).write(to: file, atomically: true, encoding: .utf8)

        let store = DiscogsImportStore(database: try AppDatabase.inMemory(), musicBrainz: musicBrainz, discogs: nil)
        var phases: [DiscogsImportState.Phase] = []
        let token = store.state.subscribe { phases.append($0.phase) }
        store.importCSV(file)
        #expect(await waitUntil(store.state, ceiling: .seconds(900)) { !store.isRunning } != nil)  // a hang guard: a loaded CI machine took over 120 s
        _ = token
        guard case .finished(let message) = phases.last else { Issue.record("ended \(String(describing: phases.last))"); return }
        #expect(message.contains("records matched on MusicBrainz"))
        #expect(phases.contains { if case .importing(let p) = $0 { return p.total == records.reduce(0) { $0 + $1.copies } } else { return false } })

        store.importFromDiscogs()
        guard case .failed(let text) = store.state.value.phase else { Issue.record("no token, no failure"); return }
        #expect(text.contains("Discogs token"))
    }
}
