import CrateCore
import CrateTestSupport
import Foundation

/// `crate-bench artist [--runs N] [--count N]`: `crate artist --mbid … --json` as a whole process
/// against a loopback MusicBrainz serving an artist with `count` release groups.
///
/// - uncached: each run in a fresh library and pacing folder, so it pays every page (100 a page,
///   1.1 s apart by MusicBrainz pacing) and nothing a previous run left;
/// - cached: the same command again on the last run's library: SQLite only;
/// - in process: `AppDatabase.artistCatalogue` (what the artist page reads) on that library;
/// - side by side: `sqlite3` reading the same rows, and `curl` fetching the same pages with the
///   same 1.1 s pacing, as the floors a whole process could reach.
func benchArtist(runs: Int, count: Int) async throws {
    let artistID = "65f4f0c5-ef9e-490c-aee3-909e7ae6b2ab"
    let server = try FixtureServer()
    defer { server.stop() }
    MusicBrainzArtistFixtures.serveCatalogue(on: server, artistID: artistID, artistName: "Sunn O)))",
                                             groups: MusicBrainzArtistFixtures.catalogue(count: count))
    let crate = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("crate")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-artist-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }

    func environment(_ root: URL) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (key, folder) in [("CRATE_DATA_DIR", "data"), ("CRATE_CACHE_DIR", "cache"), ("CRATE_CONFIG_DIR", "config"),
                              ("CRATE_STATE_DIR", "state"), ("XDG_RUNTIME_DIR", "runtime")] {
            let url = root.appendingPathComponent(folder)
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            env[key] = url.path
        }
        env["CRATE_MUSICBRAINZ_URL"] = server.url("/ws/2").absoluteString
        return env
    }

    func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (ms: Double, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        var output = Data()
        let ms = try milliseconds {
            try process.run()
            output = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
        }
        guard process.terminationStatus == 0 else { throw BenchFailure("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
        return (ms, output)
    }

    func releaseGroups(in output: Data) -> Int {
        let object = try? JSONSerialization.jsonObject(with: output) as? [String: Any]
        return (object?["release_groups"] as? [Any])?.count ?? -1
    }

    let command = ["artist", "--mbid", artistID, "--json"]
    var uncached: [Double] = []
    var requests: [Int] = []
    var lastRoot = scratch
    for index in 0..<runs {
        let root = scratch.appendingPathComponent("uncached-\(index)")
        let before = server.requests.count
        let (ms, output) = try run(crate.path, command, environment: environment(root))
        guard releaseGroups(in: output) == count else { throw BenchFailure("uncached run \(index) listed \(releaseGroups(in: output)) release groups") }
        uncached.append(ms)
        requests.append(server.requests.count - before)
        lastRoot = root
    }

    let env = environment(lastRoot)
    let before = server.requests.count
    var cached: [Double] = []
    for _ in 0..<runs {
        let (ms, output) = try run(crate.path, command, environment: env)
        guard releaseGroups(in: output) == count else { throw BenchFailure("cached run listed \(releaseGroups(in: output)) release groups") }
        cached.append(ms)
    }
    var cachedByName: [Double] = []
    for _ in 0..<runs {
        let (ms, output) = try run(crate.path, ["artist", "Sunn O)))", "--json"], environment: env)
        guard releaseGroups(in: output) == count else { throw BenchFailure("cached run by name listed \(releaseGroups(in: output)) release groups") }
        cachedByName.append(ms)
    }
    let cachedRequests = server.requests.count - before
    var version: [Double] = []
    for _ in 0..<runs { version.append(try run(crate.path, ["--version"], environment: env).ms) }

    let dataDir = lastRoot.appendingPathComponent("data")
    let paths = CratePaths(dataDirectory: dataDir, cacheDirectory: lastRoot.appendingPathComponent("cache"),
                           configDirectory: lastRoot.appendingPathComponent("config"), stateDirectory: lastRoot.appendingPathComponent("state"))
    let database = try AppDatabase.open(paths: paths)
    let id = try MBID(artistID)
    var shown = 0
    let inProcess = try (0..<runs).map { _ in try milliseconds { shown = try database.read(ArtistCatalogueRequest(id))?.sections.reduce(0) { $0 + $1.entries.count } ?? 0 } }

    // The window: an album pane's artist link to the artist page's model ready (the store finds
    // the artist by the album's release group in the cache and reads the catalogue).
    let album = try MBID(MusicBrainzArtistFixtures.catalogue(count: count)[count / 2].id)
    let storeRuns = try await storeToModelReady(database: database, name: "Sunn O)))", releaseGroup: album, expected: count, runs: runs)

    var sqlite: [Double] = []
    let sqliteFile = dataDir.appendingPathComponent("crate.sqlite").path
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
        for _ in 0..<runs {
            sqlite.append(try run("/usr/bin/sqlite3", [sqliteFile, "SELECT id, title, primaryType, secondaryTypes, firstReleaseDate FROM artist_release_group WHERE artistId = '\(artistID)' ORDER BY firstReleaseDate IS NULL, firstReleaseDate, title"], environment: env).ms)
        }
    }
    var curl: [Double] = []
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
        let pages = (count + 99) / 100
        let script = (0..<max(pages, 1)).map { page in
            "curl -s -o /dev/null -A 'crate-bench' '\(server.url("/ws/2/release-group").absoluteString)?artist=\(artistID)&type=album%7Cep&inc=artist-credits&limit=100&offset=\(page * 100)&fmt=json'"
        }.joined(separator: " && sleep 1.1 && ")
        for _ in 0..<runs { curl.append(try run("/bin/sh", ["-c", script], environment: env).ms) }
    }

    print(String(format: "artist (%d release groups, medians of %d, whole process):", count, runs))
    print(String(format: "  uncached crate artist: %.0f ms, requests per run %@ (MusicBrainz pacing alone: %.1f s)",
                 median(uncached), requests.map(String.init).joined(separator: ","), Double(max(requests.max() ?? 1, 1) - 1) * 1.1))
    print(String(format: "  curl, same pages, same 1.1 s pacing: %.0f ms", median(curl)))
    print(String(format: "  cached crate artist --mbid: %.1f ms; by name: %.1f ms (%d requests in %d runs)", median(cached), median(cachedByName), cachedRequests, 2 * runs))
    print(String(format: "  crate --version (process start alone): %.1f ms", median(version)))
    print(String(format: "  in process, artist link to the page's model ready (ArtistStore): %.2f ms", median(storeRuns)))
    print(String(format: "  sqlite3 reading the same rows: %.1f ms", median(sqlite)))
    print(String(format: "  in process, the artist page's read (%d shown): %.2f ms", shown, median(inProcess)))
}

@MainActor
func storeToModelReady(database: AppDatabase, name: String, releaseGroup: MBID, expected: Int, runs: Int) async throws -> [Double] {
    var times: [Double] = []
    for _ in 0..<runs {
        // Offline: no client, so nothing but the cache can answer.
        let store = ArtistStore(database: database, service: ArtistCatalogueService(client: nil, database: database))
        let start = DispatchTime.now().uptimeNanoseconds
        await store.open(name: name, releaseGroup: releaseGroup)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard store.state.value.phase == .loaded, store.state.value.catalogue?.releaseGroups.count == expected else {
            throw BenchFailure("the artist page's store did not load \(expected) release groups from the cache: \(store.state.value.phase)")
        }
        times.append(ms)
    }
    return times
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
