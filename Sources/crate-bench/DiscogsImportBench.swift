import CrateCore
import CrateTestSupport
import Foundation

/// `crate-bench discogs-import [--records N] [--kills K] [--seed S]`: `crate import discogs-csv`
/// of a realistic N-record Discogs export (default 5 000) as a whole process against a loopback
/// MusicBrainz, at the real pacing (1.1 s between searches, across every Crate process).
///
/// With `--kills K`, the import is SIGKILLed K times at random moments and started again each
/// time, then run once more to the end; the library must then hold exactly one copy per CSV row
/// (nothing imported twice, nothing lost). Prints wall time, MusicBrainz requests and the
/// shortest gap between two of them.
func benchDiscogsImport(records count: Int, kills: Int, seed: UInt64) async throws {
    let records = DiscogsImportFixtures.collection(count: count, seed: seed)
    let rows = records.reduce(0) { $0 + $1.copies }
    let server = try FixtureServer()
    defer { server.stop() }
    let search = MusicBrainzBatchSearchFixture(records: records)
    search.serve(on: server)
    let crate = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("crate")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-discogs-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let csv = scratch.appendingPathComponent("discogs-export.csv")
    try DiscogsImportFixtures.csv(records).write(to: csv, atomically: true, encoding: .utf8)

    var environment = ProcessInfo.processInfo.environment
    for (key, folder) in [("CRATE_DATA_DIR", "data"), ("CRATE_CACHE_DIR", "cache"), ("CRATE_CONFIG_DIR", "config"),
                          ("CRATE_STATE_DIR", "state"), ("XDG_RUNTIME_DIR", "runtime")] {
        let url = scratch.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment[key] = url.path
    }
    environment["CRATE_MUSICBRAINZ_URL"] = server.url("/ws/2").absoluteString
    environment["CRATE_COVERART_URL"] = server.url("/caa").absoluteString

    func start() throws -> Process {
        let process = Process()
        process.executableURL = crate
        process.arguments = ["import", "discogs-csv", csv.path, "--json"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    let began = Date()
    var killed = 0, exitedFirst = 0
    var generator = SystemRandomNumberGenerator()
    while killed < kills {
        let process = try start()
        // A random moment: often while staging or between two batches' writes.
        let life = Double.random(in: 0.3...12, using: &generator)
        let deadline = Date().addingTimeInterval(life)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed += 1
        } else {
            exitedFirst += 1
        }
        process.waitUntilExit()
        if exitedFirst > kills { break }
    }
    let final = try start()
    final.waitUntilExit()
    let seconds = Date().timeIntervalSince(began)

    let database = try AppDatabase.open(paths: CratePaths(environment: environment))
    let copies = try database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM album_copy") ?? 0 }
    let counts = try database.discogsImportCounts()
    let arrivals = server.requests(path: "/ws/2/release").map(\.arrival).sorted()
    let gaps = zip(arrivals.dropFirst(), arrivals).map { $0.timeIntervalSince($1) }
    print("discogs-import: \(count) records, \(rows) rows, \(kills) kills asked, \(killed) made (\(exitedFirst) runs ended first)")
    print("  wall time \(String(format: "%.1f", seconds)) s, MusicBrainz searches \(arrivals.count), shortest gap \(String(format: "%.3f", gaps.min() ?? 0)) s")
    print("  matched \(counts.matched), Discogs only \(counts.discogsOnly), pending \(counts.pending); copies \(copies) (expected \(rows))")
    print("  exit status of the last run: \(final.terminationStatus)")
    guard copies == rows, counts.pending == 0, final.terminationStatus == 0 else {
        throw BenchFailure("the import did not end with one copy per row")
    }
}
