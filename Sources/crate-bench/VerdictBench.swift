import CrateCore
import CrateTestSupport
import Foundation

/// `crate-bench verdict BARCODE_PHOTO [--runs N] [--plain PHOTO]` (docs/performance.md, "Offline
/// verdicts"): how long "do I own this?" takes, offline, for an owned album of a temporary library
/// (cover-00's artwork and hash, the release's barcode the one in BARCODE_PHOTO):
/// 1. in process, the whole `ScanPipeline` scan, median of `runs`: (a) a 12 MP photo of the cover
///    (tier 0), (b) BARCODE_PHOTO (the barcode, before tier 0), (c) the barcode typed;
/// 2. what reading barcodes adds to a 12 MP scan without one: the preparation with and without
///    the kept luma, and the scan of cover-00-12mp and of `--plain` (not in the crate, no barcode)
///    with and without the reader, alternating run by run so both see the same load;
/// 3. whole processes: `crate scan --offline --json` on both photos and `--barcode`, next to
///    `zbarimg --raw -q` on BARCODE_PHOTO.
func benchVerdict(barcodePhoto: String, plainPhoto: String, runs: Int, fixtures: String) async throws {
    let images = URL(fileURLWithPath: fixtures)
    let coverPhoto = images.appendingPathComponent("photos/cover-00-12mp.jpg")
    let barcodeURL = URL(fileURLWithPath: barcodePhoto), plainURL = URL(fileURLWithPath: plainPhoto)
    if let problem = BarcodeReader.unavailable { throw problem }
    guard let barcode = try BarcodeReader().read(photoAt: barcodeURL).first else {
        print("error: no barcode read in \(barcodePhoto)")
        exit(1)
    }

    let root = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-verdict-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let variables = ["CRATE_DATA_DIR": "data", "CRATE_CACHE_DIR": "cache", "CRATE_CONFIG_DIR": "config", "CRATE_STATE_DIR": "state"]
        .mapValues { root.appendingPathComponent($0).path }
    let paths = CratePaths(environment: variables)
    let database = try AppDatabase.open(paths: paths)
    let albumID = try await ownedAlbum(in: database, paths: paths, cover: images.appendingPathComponent("covers/cover-00.jpg"), barcode: barcode)
    print("library: 1 owned album (cover-00, barcode \(barcode.digits) from \(barcodeURL.lastPathComponent)); release build, medians of \(runs) runs")

    // 1. In process.
    let pipeline = ScanPipeline(database: database, paths: paths, services: .offline)
    let cases: [(String, IdentificationMethod, () async throws -> ScanResult)] = [
        ("(a) photo, tier 0: \(coverPhoto.lastPathComponent)", .localMatch, { try await pipeline.scan(file: coverPhoto) { _ in } }),
        ("(b) photo, barcode: \(barcodeURL.lastPathComponent)", .barcode, { try await pipeline.scan(file: barcodeURL) { _ in } }),
        ("(c) typed barcode \(barcode.digits)", .barcode, { try await pipeline.scan(barcode: barcode) }),
    ]
    print("\n| offline verdict, in process | method | verdict | median |\n|---|---|---|---|")
    for (label, method, scan) in cases {
        let first = try await scan()
        guard first.entry.album.id == albumID, first.entry.scan.method == method else {
            print("error: \(label) found \(first.entry.album.title) by \(first.entry.scan.method)")
            exit(1)
        }
        var times: [Double] = []
        for _ in 0..<runs { times.append(await asyncMilliseconds { _ = try? await scan() }) }
        print("| \(label) | \(method.rawValue) | \(first.verdict.map { "\($0.kind)" } ?? "none") | \(format(median(times))) ms |")
    }

    // 2. The cost on a scan without a barcode, alternating with and without.
    let preparer = ImagePreparer()
    let without = ScanPipeline(database: database, paths: paths, services: .offline, barcodeReader: nil)
    print("\n| 12 MP scan without a barcode | without barcodes | with barcodes | added |\n|---|---|---|---|")
    for url in [coverPhoto, plainURL] {
        let data = try Data(contentsOf: url)
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<runs {
            a.append(try milliseconds { _ = try preparer.preparePhoto(data) })
            b.append(try milliseconds { _ = try preparer.preparePhoto(data, keepingLuma: true) })
        }
        print("| preparation of \(url.lastPathComponent) (luma kept) | \(format(median(a))) ms | \(format(median(b))) ms | \(format(median(b) - median(a))) ms |")
        a = []
        b = []
        for _ in 0..<runs {
            a.append(await asyncMilliseconds { _ = try? await without.scan(file: url) { _ in } })
            b.append(await asyncMilliseconds { _ = try? await pipeline.scan(file: url) { _ in } })
        }
        print("| scan of \(url.lastPathComponent) | \(format(median(a))) ms | \(format(median(b))) ms | \(format(median(b) - median(a))) ms |")
        let photo = try preparer.preparePhoto(data, keepingLuma: true)
        let reader = BarcodeReader()
        let read = try (0..<runs).map { _ in try milliseconds { _ = try reader.read(photo) } }
        print("| the reader alone on \(url.lastPathComponent)'s kept luma | | | \(format(median(read))) ms |")
    }

    // 3. Whole processes.
    let crate = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("crate")
    func process(_ arguments: [String]) -> String {
        let times = (0..<runs).compactMap { _ in runCrate(crate, arguments, environment: variables) }
        return times.count == runs ? "\(format(median(times))) ms" : "failed"
    }
    print("\n| whole process | median |\n|---|---|")
    print("| `crate --version` | \(process(["--version"])) |")
    print("| `crate scan --offline --json` \(coverPhoto.lastPathComponent) (tier 0) | \(process(["scan", "--offline", "--json", coverPhoto.path])) |")
    print("| `crate scan --offline --json` \(barcodeURL.lastPathComponent) (barcode) | \(process(["scan", "--offline", "--json", barcodeURL.path])) |")
    print("| `crate scan --offline --json --barcode \(barcode.digits)` | \(process(["scan", "--offline", "--json", "--barcode", barcode.digits])) |")
    let zbar = (0..<runs).compactMap { _ in timeProcess("/usr/bin/zbarimg", ["--raw", "-q", barcodeURL.path]) }
    print("| `zbarimg --raw -q` \(barcodeURL.lastPathComponent) (reading only) | \(zbar.isEmpty ? "n/a" : "\(format(median(zbar))) ms") |")
}

/// The owned album: cover-00's artwork in the cache with its hash (for tier 0), and release facts
/// carrying `barcode`.
private func ownedAlbum(in database: AppDatabase, paths: CratePaths, cover: URL, barcode: Barcode) async throws -> Int64 {
    let releaseID = try MBID(MusicBrainzFixtures.rumoursReleaseID)
    let entry = try database.saveScan(of: Album(musicBrainzReleaseID: releaseID.rawValue, title: "Rumours", artist: "Fleetwood Mac"),
                                      method: .vision, at: Date(timeIntervalSince1970: 1_000_000))
    guard let albumID = entry.album.id else { throw CocoaError(.coderInvalidValue) }
    let art = try ImagePreparer().prepareArtwork(Data(contentsOf: cover))
    let cache = ArtworkCache(paths: paths)
    let files = try await cache.store(art.large, thumbnail: art.thumbnail, for: releaseID)
    try database.saveCoverHash(art.hash, forAlbum: albumID)
    try database.setArtwork(albumID: albumID, status: .available, artworkPath: cache.storedPath(for: files.artwork),
                            thumbnailPath: files.thumbnail.map(cache.storedPath(for:)))
    try database.saveReleaseDetails(albumID: albumID, genres: [], label: nil, year: nil, releaseGroupID: nil,
                                    tracks: [Track(albumID: albumID, position: 1, title: "Second Hand News")],
                                    facts: ReleaseFacts(releaseID: releaseID.rawValue, barcode: barcode.digits,
                                                        media: [ReleaseMedium(position: 1, format: "12\" Vinyl", title: nil, trackCount: 1)]))
    _ = try database.own(albumID: albumID)
    return albumID
}

/// Whole-process time of a tool, output discarded; nil when it cannot run.
private func timeProcess(_ path: String, _ arguments: [String]) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        return try milliseconds {
            try process.run()
            process.waitUntilExit()
        }
    } catch {
        return nil
    }
}
