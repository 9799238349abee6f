import CrateCore
import CrateTestSupport
import Foundation
import Synchronization

/// `crate-bench wall [--runs N] [--latency S]` (docs/performance.md):
/// 1. the stored 60-tile wall read back as the window does on launch (open the library, read the
///    wall and ratings, read every tile's cached art file), in process and as a whole
///    `crate wall --cached --json` process;
/// 2. a fresh 60-tile wall with every source answering after `latency` seconds (the loopback
///    fixture server), in process (cold: a new library; warm: recording mappings known) and as a
///    whole `crate wall --json` process; with the requests each wall sends per service.
func benchWall(runs: Int, latency: TimeInterval) async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-wall-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let variables = [
        "CRATE_DATA_DIR": root.appendingPathComponent("data").path,
        "CRATE_CACHE_DIR": root.appendingPathComponent("cache").path,
        "CRATE_CONFIG_DIR": root.appendingPathComponent("config").path,
        "CRATE_STATE_DIR": root.appendingPathComponent("state").path,
    ]
    let paths = CratePaths(environment: variables)

    // 1. A stored wall of 60 tiles, each with a 250 px JPEG in the cache.
    do {
        let database = try AppDatabase.open(paths: paths)
        let items = try (0..<60).map { n in
            WallItem(signal: WallSignal.allCases[n % 5], releaseGroupID: try MBID(ListenBrainzFixtures.mbid(0x90, n)), title: "Album \(n)", artist: "Artist \(n)")
        }
        try database.saveWall(dial: .mixed, items: items, unavailable: [])
        try FileManager.default.createDirectory(at: paths.artworkDirectory, withIntermediateDirectories: true)
        let jpeg = try JPEGCodec.encode(RGBImage(width: 250, height: 250, pixels: [UInt8](repeating: 128, count: 250 * 250 * 3)), quality: 85)
        for item in items {
            let name = WallArtwork.fileName(for: item.releaseGroupID)
            try jpeg.write(to: paths.artworkDirectory.appendingPathComponent(name))
            try database.setWallArtwork(releaseGroupID: item.releaseGroupID, status: .available, path: name)
        }
    }
    var inProcess: [Double] = []
    for _ in 0..<runs {
        inProcess.append(try milliseconds {
            let database = try AppDatabase.open(paths: paths)
            let wall = try database.read(StoredWallRequest())
            _ = try database.read(AlbumRatingsRequest())
            var bytes = 0
            for tile in wall?.tiles ?? [] {
                if let url = ArtworkCache.url(forStoredPath: tile.artworkPath, in: paths.artworkDirectory) { bytes += (try Data(contentsOf: url)).count }
            }
            precondition(wall?.tiles.count == 60 && bytes > 0)
        })
    }
    let crate = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("crate")
    var processCached: [Double] = []
    for _ in 0..<runs {
        if let t = runCrate(crate, ["wall", "--cached", "--json"], environment: variables) { processCached.append(t) }
    }
    print("cached wall (60 tiles + art): in process \(format(median(inProcess))) ms; `crate wall --cached --json` whole process \(processCached.isEmpty ? "n/a" : format(median(processCached))) ms (medians of \(runs))")

    // 2. Fresh walls against the fixture server, every answer after `latency` seconds.
    let server = try FixtureServer()
    defer { server.stop() }
    ListenBrainzWorld.install(on: server, latency: latency)
    var settings = Settings()
    settings.endpoints.listenBrainz = server.baseURL
    settings.endpoints.musicBrainz = server.url("/ws/2")
    settings.endpoints.coverArtArchive = server.url("/caa")
    settings.listenBrainzUser = "rob"
    var cold: [Double] = [], coldFinished: [Double] = [], warm: [Double] = []
    var perWall: [String: Int] = [:], perWarmWall: [String: Int] = [:]
    var mbGaps: [Double] = []
    var lastMusicBrainz: TimeInterval?
    for run in 0..<runs {
        let database = try AppDatabase.inMemory()
        let limiter = RateLimiter(clock: SystemNetworkClock())
        let environment = AppEnvironment(paths: paths, variables: ["CRATE_LISTENBRAINZ_TOKEN": "t"], database: database, limiter: limiter)
        let service = try environment.services(settings: settings).wallService(timeout: 5)
        let before = server.requests.count
        let startUptime = ProcessInfo.processInfo.systemUptime
        let readyAt = Mutex<Double?>(nil)
        var built: BuiltWall?
        let start = DispatchTime.now().uptimeNanoseconds
        coldFinished.append(await asyncMilliseconds {
            built = try? await service.refresh(dial: .mixed, count: 60) { wall in
                precondition(wall.items.count == 60, "ready wall: \(wall.items.count) tiles, \(wall.unavailable)")
                readyAt.withLock { $0 = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
            }
        })
        cold.append(readyAt.withLock { $0 } ?? .infinity)
        precondition(built?.items.count == 60, "cold wall: \(built?.unavailable ?? [])")
        precondition(built?.counts[.recommendations] ?? 0 > 0, "the recommendations never filled their places")
        if run == 0 {
            print("new library, run 1: requests as they reached the server (ms after the refresh began):")
            for request in server.requests[before...] {
                print("  \(format((request.uptime - startUptime) * 1000)) \(request.method) \(request.path)")
            }
            print("  wall ready \(format(cold[0])) ms, finished (recommendations in their places) \(format(coldFinished[0])) ms")
        }
        for request in server.requests[before...] {
            let service = request.path.hasPrefix("/ws/2") ? "MusicBrainz" : "ListenBrainz"
            if run == 0 { perWall[service, default: 0] += 1 }
            if service == "MusicBrainz" {
                if let last = lastMusicBrainz { mbGaps.append(request.uptime - last) }
                lastMusicBrainz = request.uptime
            }
        }
        // MusicBrainz's 1 request/second holds between walls too: wait out the slot, as a user would.
        try await Task.sleep(nanoseconds: 1_200_000_000)
        let beforeWarm = server.requests.count
        warm.append(await asyncMilliseconds { built = try? await service.refresh(dial: .mixed, count: 60) })
        precondition(built?.items.count == 60)
        for request in server.requests[beforeWarm...] {
            let service = request.path.hasPrefix("/ws/2") ? "MusicBrainz" : "ListenBrainz"
            if run == 0 { perWarmWall[service, default: 0] += 1 }
            if service == "MusicBrainz" {
                if let last = lastMusicBrainz { mbGaps.append(request.uptime - last) }
                lastMusicBrainz = request.uptime
            }
        }
        try await Task.sleep(nanoseconds: 1_200_000_000)
    }
    // Where the first answers' time goes: each source on its own, in process.
    do {
        let database = try AppDatabase.inMemory()
        let environment = AppEnvironment(paths: paths, variables: ["CRATE_LISTENBRAINZ_TOKEN": "t"], database: database, limiter: RateLimiter(clock: SystemNetworkClock()))
        let service = try environment.services(settings: settings).wallService(timeout: 5)
        let draft = await service.builder.start(dial: .mixed, count: 60)
        print("first answer per source (new library): " + draft.timings.sorted { $0.key < $1.key }.map { "\($0.key.title) \(format($0.value)) ms" }.joined(separator: ", ")
              + "; pending after the first answers: \(draft.ready.pending.map(\.title))")
        _ = await draft.complete()
        try await Task.sleep(nanoseconds: 1_200_000_000)
    }
    print("fresh wall, every source after \(Int(latency * 1000)) ms: new library ready \(format(median(cold))) ms (finished, recommendations in place: \(format(median(coldFinished))) ms), recording mappings known \(format(median(warm))) ms (medians of \(runs)); requests per wall: new library \(perWall.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); mappings known \(perWarmWall.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); shortest gap between MusicBrainz requests \(mbGaps.min().map { format($0 * 1000) } ?? "n/a") ms")

    var processFresh: [Double] = []
    var env = variables
    env["CRATE_LISTENBRAINZ_URL"] = server.baseURL.absoluteString
    env["CRATE_MUSICBRAINZ_URL"] = server.url("/ws/2").absoluteString
    env["CRATE_COVERART_URL"] = server.url("/caa").absoluteString
    env["CRATE_LISTENBRAINZ_USER"] = "rob"
    env["CRATE_SECRET_SERVICE"] = "off"
    for _ in 0..<runs {
        if let t = runCrate(crate, ["wall", "--json"], environment: env) { processFresh.append(t) }
        usleep(1_200_000)
    }
    print("`crate wall --json` whole process, every source after \(Int(latency * 1000)) ms: median \(processFresh.isEmpty ? "n/a" : format(median(processFresh))) ms of \(processFresh.count) (the first run maps recordings cold)")
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

func asyncMilliseconds(_ block: () async -> Void) async -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    await block()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// Whole-process time of one `crate` run; nil if it failed.
func runCrate(_ binary: URL, _ arguments: [String], environment: [String: String]) -> Double? {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.environment = environment.merging(["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]) { a, _ in a }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        let t = try milliseconds {
            try process.run()
            process.waitUntilExit()
        }
        return process.terminationStatus == 0 ? t : nil
    } catch {
        return nil
    }
}
