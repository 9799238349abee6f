import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// The window's Discogs import, under Xvfb: the banner shows the count and the time left while
/// it runs, then what it did, and the library holds one copy per row.
@Suite("The window imports a Discogs export", .tags(.process, .slow))
struct WindowDiscogsImportTests {
    @Test(.enabled(if: WindowRefreshEndToEndTests.available))
    func theBannerCountsAndThenSaysWhatItDid() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let records = DiscogsImportFixtures.collection(count: 120, seed: 13)
        MusicBrainzBatchSearchFixture(records: records).serve(on: server)
        server.route("/caa/*", responses: [.notFound])
        let cli = try CLIRunner()
        let config = cli.root.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: config.appendingPathComponent("settings.json"))
        let file = cli.root.appendingPathComponent("export.csv")
        try DiscogsImportFixtures.csv(records).write(to: file, atomically: true, encoding: .utf8)
        let rows = records.reduce(0) { $0 + $1.copies }

        let window = Process()
        window.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
        window.arguments = ["--", "xvfb-run", "-a", WindowRefreshEndToEndTests.desktop.path]
        window.environment = cli.environment.merging([
            "CRATE_TEST_EVENTS": "1", "CRATE_PLAYER": "log", "PATH": "/usr/bin:/bin", "CRATE_TEST_DISCOGS_CSV": file.path,
            "CRATE_MUSICBRAINZ_URL": server.url("/ws/2").absoluteString, "CRATE_COVERART_URL": server.url("/caa").absoluteString,
        ]) { _, new in new }
        let output = Pipe()
        window.standardOutput = output
        window.standardError = FileHandle.nullDevice
        let lines = WindowRefreshEndToEndTests.Lines()
        output.fileHandleForReading.readabilityHandler = { handle in lines.append(String(decoding: handle.availableData, as: UTF8.self)) }
        try window.run()
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            WindowRefreshEndToEndTests.killTree(of: window)
        }
        let finished = "discogs-import Imported from Discogs: \(rows - records.filter { $0.mbid == nil }.reduce(0) { $0 + $1.copies }) records matched on MusicBrainz, "
            + "\(records.filter { $0.mbid == nil }.reduce(0) { $0 + $1.copies }) kept as Discogs only"
        let done = try await BlockingWork.run { lines.wait(for: finished, timeout: 180) }
        #expect(done != nil, "the banner never said the import was done")
        // While it ran: "Importing from Discogs: 50 of 122 records · about 3 seconds left".
        #expect(lines.firstSeenPrefix("discogs-import Importing from Discogs: ") != nil)
        #expect(lines.firstSeenPrefix("discogs-import Importing from Discogs: 0 of \(rows) records · about ") != nil)
        let database = try AppDatabase.open(paths: CratePaths(environment: cli.environment))
        #expect(try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM album_copy") } == rows)
    }
}
