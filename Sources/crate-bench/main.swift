import CrateCore
import CrateTestSupport
import Foundation

/// crate-bench: measurements that are not tests (docs/performance.md).
///   crate-bench image PHOTO... [--runs N]   median per-stage time of photo preparation, next to vipsthumbnail
///   crate-bench calibrate FIXTURES_DIR        tier-0 distances for every fixture photo
///   crate-bench tier0 [--albums N] [--runs N]  tier-0 lookup against N stored albums (fixtures + random)
///   crate-bench tier0-classes DIR [--fixtures FIXTURES_DIR] [--verbose]  tier-0 recall and false accepts per
///                                             degradation class (photos from scripts/make-tier0-classes DIR)
///   crate-bench music-index [--files N] [--runs N]  `crate music scan` of N files, again unchanged, and `find`
///   crate-bench tags [N]                      TagLib against GStreamer's discoverer on N files
///   crate-bench gap [RUNS]                    silence between tracks at the sink, gapless vs end-of-stream
///   crate-bench lossy-gap [FORMAT...]         sample-level seams between tracks per lossy format (lame, ffmpeg, oggenc, opusenc)
///   crate-bench replaygain                    output level of two albums 10 dB apart with album gain on and off
///   crate-bench player [RUNS]                 the player process against the player in this process
///   crate-bench wall [--runs N] [--latency S]  cached and fresh Crate Walls (loopback fixture server)
///   crate-bench artist [--runs N] [--count N]  crate artist uncached and cached against a loopback MusicBrainz
///   crate-bench barcodes DIR [--runs N] [--lines N] [--passes]  barcode found rate per class and time on 12 MP photos, next to zbarimg
///   crate-bench discogs-import [--records N] [--kills K]  `crate import discogs-csv` of N realistic records, killed K times
///   crate-bench verdict BARCODE_PHOTO [--runs N] [--plain PHOTO]  offline "do I own this?" by photo, photo barcode and typed barcode
let arguments = Array(CommandLine.arguments.dropFirst())

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func milliseconds(_ block: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try block()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func runVips(_ path: String, size: Int) -> Double? {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("crate-bench-vips.jpg").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsthumbnail")
    process.arguments = [path, "--size", "\(size)x\(size)", "--smartcrop", "centre", "-o", out + "[Q=85]"]
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

/// Process start-up alone (`vips --version`), so vipsthumbnail's whole-command time can be
/// compared honestly with our in-process time.
func runVipsVersion() -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
    process.arguments = ["--version"]
    process.standardOutput = FileHandle.nullDevice
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

/// The preparer to measure: `CRATE_TABLE=consumer` builds the luma table on the consuming
/// thread, as before the table moved to the decoding thread (both in one build, side by side);
/// `CRATE_EDGE_SEARCH=off` leaves out the squares run out of the frame (`EdgeSearch`).
func benchPreparer() -> ImagePreparer {
    let standard = CropSearch.standard
    let edges = ProcessInfo.processInfo.environment["CRATE_EDGE_SEARCH"] == "off" ? EdgeSearch.none : standard.edges
    var preparer = ImagePreparer(cropSearch: CropSearch(scales: standard.scales, offsets: standard.offsets, edges: edges))
    preparer.integralOnDecoderThread = ProcessInfo.processInfo.environment["CRATE_TABLE"] != "consumer"
    return preparer
}

func benchImage(_ paths: [String], runs: Int) throws {
    let preparer = benchPreparer()
    var startup: [Double] = []
    for _ in 0..<runs { if let t = runVipsVersion() { startup.append(t) } }
    print("vips --version (process start-up only) median \(startup.isEmpty ? "n/a" : String(format: "%.1f", median(startup))) ms")
    for path in paths {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var totals: [Double] = [], vips: [Double] = []
        _ = try preparer.preparePhoto(data)  // Warm up tables and caches.
        // In blocks, not interleaved: a vips process exiting on the other core while ours runs
        // would time the interference, not either tool.
        for _ in 0..<runs { totals.append(try milliseconds { _ = try preparer.preparePhoto(data) }) }
        for _ in 0..<runs { if let v = runVips(path, size: preparer.visionSize) { vips.append(v) } }
        let stages = try StageTimer.measure(data, preparer: preparer, runs: runs)
        print("\(URL(fileURLWithPath: path).lastPathComponent): crate median \(String(format: "%.1f", median(totals))) ms; "
              + "vipsthumbnail (process, incl. startup) median \(vips.isEmpty ? "n/a" : String(format: "%.1f", median(vips))) ms; runs \(runs)")
        for (name, values) in stages { print("  \(name): \(String(format: "%.2f", median(values))) ms") }
    }
}

/// Tier-0 lookup at library scale: the fixture covers plus random hashes up to `albums`, one photo
/// prepared and matched per run (docs/performance.md: ≤ 100 ms including preparation).
func benchTier0(albums: Int, runs: Int, fixtures: String) throws {
    let root = URL(fileURLWithPath: fixtures)
    let preparer = benchPreparer()
    var covers: [StoredCover] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("covers").path).sorted() {
        let data = try Data(contentsOf: root.appendingPathComponent("covers/\(file)"))
        covers.append(StoredCover(albumID: Int64(covers.count), hash: try preparer.prepareArtwork(data).hash))
    }
    var generator = SystemRandomNumberGenerator()
    while covers.count < albums {
        let h = Hash256(generator.next(), generator.next(), generator.next(), generator.next())
        covers.append(StoredCover(albumID: Int64(covers.count), hash: CoverHash(pHash: generator.next(), dHash: generator.next(), dct256: h)))
    }
    // The fixture covers' artwork files, as the artwork cache holds them (500 px JPEG); the
    // random albums have none, like albums whose artwork never arrived.
    let coverDir = root.appendingPathComponent("covers")
    var artworkFiles: [Int64: Data] = [:]
    for (i, file) in try FileManager.default.contentsOfDirectory(atPath: coverDir.path).sorted().enumerated() {
        artworkFiles[Int64(i)] = try preparer.prepareArtwork(Data(contentsOf: coverDir.appendingPathComponent(file))).large
    }
    let verify = ProcessInfo.processInfo.environment["CRATE_VERIFY"] != "off"
    let verifier = ProcessInfo.processInfo.environment["CRATE_VERIFY"] == "standard" ? CoverVerifier.standard : .lightAware
    let matcher = verify ? LocalMatcher.shortlist : LocalMatcher.standard
    // CRATE_SCAN_PATH=avx2 (or portable, popcnt, avx512) forces the match's loop, to compare them.
    let path = ProcessInfo.processInfo.environment["CRATE_SCAN_PATH"].flatMap { name in
        LocalMatcher.ScanPath.allCases.first { "\($0)" == name }
    } ?? .automatic
    let table = CoverTable(covers)
    for name in ["cover-00-12mp.jpg", "cover-05-photo-0.jpg", "cover-07-photo-1.jpg"] {
        let data = try Data(contentsOf: root.appendingPathComponent("photos/\(name)"))
        if ProcessInfo.processInfo.environment["CRATE_TABLE"] == "both" {
            // Preparation alone, the two phase-1 splits alternating run by run: both see the same load.
            var consumer = preparer
            consumer.integralOnDecoderThread = false
            var decoder = preparer
            decoder.integralOnDecoderThread = true
            var a: [Double] = [], b: [Double] = []
            for _ in 0..<runs {
                a.append(try milliseconds { _ = try consumer.preparePhoto(data) })
                b.append(try milliseconds { _ = try decoder.preparePhoto(data) })
            }
            print("prepare \(name): luma table on the consuming thread \(String(format: "%.1f", median(a))) ms, "
                  + "on the decoding thread \(String(format: "%.1f", median(b))) ms (medians of \(runs), alternating)")
        }
        var prepare: [Double] = [], match: [Double] = [], check: [Double] = [], total: [Double] = []
        var result: LocalMatch?
        for _ in 0..<runs {
            var photo: PreparedPhoto?
            let p = try milliseconds { photo = try preparer.preparePhoto(data) }
            guard let photo else { continue }
            var shortlist: [LocalMatch] = []
            let m = milliseconds {
                if verify { shortlist = matcher.shortlist(photo.hashes, in: table, path: path) } else { result = matcher.match(photo.hashes, in: table, path: path) }
            }
            let v = try milliseconds {
                guard verify else { return }
                result = try TierZeroRule.decide(shortlist) { hit in
                    guard let file = artworkFiles[hit.albumID], let artwork = try? JPEGCodec.decode(file).0,
                          let hash = table.hash(of: hit.albumID) else { return nil }
                    return try verifier.check(photo, against: artwork, coverHash: hash)
                }
            }
            prepare.append(p)
            match.append(m)
            check.append(v)
            total.append(p + m + v)
        }
        print("tier0 \(name) vs \(covers.count) albums: prepare \(String(format: "%.1f", median(prepare))) ms, "
              + "match \(String(format: "%.1f", median(match))) ms, verify \(String(format: "%.1f", median(check))) ms, "
              + "total \(String(format: "%.1f", median(total))) ms "
              + "(medians of \(runs)); decision \(result.map { "album \($0.albumID) at \($0.distance), runner-up \($0.runnerUpDistance)" } ?? "none")")
    }
}

func calibrate(_ dir: String) throws {
    let root = URL(fileURLWithPath: dir)
    let env = ProcessInfo.processInfo.environment
    // Experiments: CRATE_SCALES="0.5,0.6" CRATE_OFFSETS="-0.1,0,0.1".
    func list(_ key: String) -> [Double]? { env[key].map { $0.split(separator: ",").compactMap { Double($0) } } }
    let search = CropSearch(scales: list("CRATE_SCALES") ?? CropSearch.standard.scales,
                            offsets: list("CRATE_OFFSETS") ?? CropSearch.standard.offsets,
                            edges: benchPreparer().cropSearch.edges)
    let preparer = ImagePreparer(cropSearch: search)
    let fm = FileManager.default
    var covers: [StoredCover] = []
    var names: [Int64: String] = [:]
    var artwork: [Int64: RGBImage] = [:]
    let coverFiles = try fm.contentsOfDirectory(atPath: root.appendingPathComponent("covers").path).sorted()
    for (i, file) in coverFiles.enumerated() {
        let data = try Data(contentsOf: root.appendingPathComponent("covers/\(file)"))
        let prepared = try preparer.prepareArtwork(data)
        covers.append(StoredCover(albumID: Int64(i), hash: prepared.hash))
        artwork[Int64(i)] = try JPEGCodec.decode(prepared.large).0
        names[Int64(i)] = String(file.dropLast(4))
    }
    // CRATE_VERIFY=off: the hash alone decides (LocalMatcher.standard), as before the verification;
    // CRATE_VERIFY=standard: the cell verification (the default is the scan's light-aware one, decision 0039).
    let verify = env["CRATE_VERIFY"] != "off"
    let verifier = env["CRATE_VERIFY"] == "standard" ? CoverVerifier.standard : .lightAware
    let table = CoverTable(covers)
    let matcher = LocalMatcher.standard
    // hard/MANIFEST.tsv (scripts/make-hard-fixtures): file → expected cover or "-".
    var hardExpected: [String: String] = [:]
    if let manifest = try? String(contentsOf: root.appendingPathComponent("hard/MANIFEST.tsv"), encoding: .utf8) {
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count >= 3 { hardExpected[String(fields[0])] = String(fields[2]) }
        }
    }
    var tally = CalibrationTally()
    let dump = VerificationDump()
    for folder in ["photos", "negatives", "hard"] {
        guard fm.fileExists(atPath: root.appendingPathComponent(folder).path) else { continue }
        for file in try fm.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted() where file.hasSuffix(".jpg") {
            let data = try Data(contentsOf: root.appendingPathComponent("\(folder)/\(file)"))
            let photo = try preparer.preparePhoto(data)
            let ranking = matcher.ranked(photo.hashes, among: covers)
            let expected = folder == "photos" ? String(file.prefix(8)) : folder == "hard" ? hardExpected[file] ?? "-" : "-"
            let own = ranking.first { names[$0.albumID] == expected }?.distance ?? -1
            let wrong = ranking.first { names[$0.albumID] != expected }!.distance
            var decision = "nil"
            var notes = ""
            if verify {
                let shortlist = LocalMatcher.shortlist.shortlist(photo.hashes, in: table)
                try dump?.add(set: "calibration", file: "\(folder)/\(file)", group: folder, expected: expected == "-" ? nil : expected,
                              photo: photo, shortlist: shortlist, names: names, artwork: artwork, table: table)
                let chosen = try TierZeroRule.decide(shortlist) { hit in
                    let check = try verifier.check(photo, against: artwork[hit.albumID]!, coverHash: table.hash(of: hit.albumID)!)
                    notes += String(format: "\t%@@%d:%@ ecc=%.2f vis=%.2f agr=%.2f", names[hit.albumID]!, hit.distance,
                                    "\(check.outcome)", check.correlation, check.visible, check.agreement)
                    return check
                }
                decision = chosen.map { names[$0.albumID]! } ?? "nil"
            } else {
                decision = matcher.match(photo.hashes, among: covers).map { names[$0.albumID]! } ?? "nil"
            }
            let gap = ranking.count > 1 ? ranking[1].distance - ranking[0].distance : 256
            tally.add(folder: folder, expected: expected, decision: decision)
            print("\(folder)/\(file)\tfirst=\(ranking[0].distance)\tgap=\(gap)\town=\(own)\tbestWrong=\(wrong)\tmargin=\(own >= 0 ? wrong - own : 0)\tdecision=\(decision)\(decision == expected || (decision == "nil" && expected == "-") ? "" : "  <--")\(notes)")
        }
    }
    tally.printSummary()
}

/// The calibration's totals: recall on photos of crate covers, wrong albums, false accepts on
/// photos whose album is not in the crate.
struct CalibrationTally {
    var rows: [String: (known: Int, found: Int, wrong: Int, negatives: Int, falseAccepts: Int)] = [:]

    mutating func add(folder: String, expected: String, decision: String) {
        var row = rows[folder] ?? (0, 0, 0, 0, 0)
        if expected == "-" {
            row.negatives += 1
            if decision != "nil" { row.falseAccepts += 1 }
        } else {
            row.known += 1
            if decision == expected { row.found += 1 } else if decision != "nil" { row.wrong += 1 }
        }
        rows[folder] = row
    }

    func printSummary() {
        print("\n| set | photos of crate covers | found | wrong album | not in crate | false accepts |")
        print("|---|---|---|---|---|---|")
        var total = (known: 0, found: 0, wrong: 0, negatives: 0, falseAccepts: 0)
        for folder in ["photos", "negatives", "hard"] {
            guard let r = rows[folder] else { continue }
            print("| \(folder) | \(r.known) | \(r.found) | \(r.wrong) | \(r.negatives) | \(r.falseAccepts) |")
            total = (total.known + r.known, total.found + r.found, total.wrong + r.wrong, total.negatives + r.negatives,
                     total.falseAccepts + r.falseAccepts)
        }
        let recall = total.known == 0 ? 0 : 100 * Double(total.found) / Double(total.known)
        print("| all | \(total.known) | \(total.found) (\(String(format: "%.1f", recall)) %) | \(total.wrong) | \(total.negatives) | \(total.falseAccepts) |")
    }
}

do {
    switch arguments.first {
    case "image":
        var runs = 15
        var paths: [String] = []
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n } else { paths.append(arg) }
        }
        try benchImage(paths, runs: runs)
    case "tier0":
        var albums = 100_000, runs = 7
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--albums", let n = rest.popFirst().flatMap({ Int($0) }) { albums = n }
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
        }
        try benchTier0(albums: albums, runs: runs, fixtures: "Tests/Fixtures/images")
    case "library":
        try benchLibrary(dataDirectory: arguments.count > 1 ? arguments[1] : ".", runs: 5)
    case "artist":
        var runs = 5, count = 250
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
            if arg == "--count", let n = rest.popFirst().flatMap({ Int($0) }) { count = n }
        }
        try await benchArtist(runs: runs, count: count)
    case "discogs-import":
        var records = 5_000, kills = 0, seed: UInt64 = 28
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--records", let n = rest.popFirst().flatMap({ Int($0) }) { records = n }
            if arg == "--kills", let n = rest.popFirst().flatMap({ Int($0) }) { kills = n }
            if arg == "--seed", let n = rest.popFirst().flatMap({ UInt64($0) }) { seed = n }
        }
        try await benchDiscogsImport(records: records, kills: kills, seed: seed)
    case "wall":
        var runs = 5
        var latency = 0.4
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
            if arg == "--latency", let n = rest.popFirst().flatMap({ Double($0) }) { latency = n }
        }
        try await benchWall(runs: runs, latency: latency)
    case "tier0-classes":
        var fixtures = "Tests/Fixtures/images", verbose = false, dir: String?
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--fixtures", let f = rest.popFirst() { fixtures = f } else if arg == "--verbose" { verbose = true } else { dir = arg }
        }
        try benchTier0Classes(dir ?? "/tmp/crate-tier0-classes", fixtures: fixtures, verbose: verbose)
    case "calibrate":
        try calibrate(arguments.count > 1 ? arguments[1] : "Tests/Fixtures/images")
    case "music-index":
        var count = 10_000, runs = 5
        var crate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("crate").path
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--files", let n = rest.popFirst().flatMap({ Int($0) }) { count = n }
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
            if arg == "--crate", let path = rest.popFirst() { crate = path }
        }
        try benchIndex(count: count, runs: runs, crate: crate)
    case "tags":
        try benchTagReaders(count: arguments.count > 1 ? Int(arguments[1]) ?? 1_000 : 1_000)
    case "gap":
        try await benchGap(runs: arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5)
    case "barcodes":
        var runs = 7, scanLines = BarcodeReader().scanLines, allSets = false
        var directory: String?
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
            else if arg == "--lines", let n = rest.popFirst().flatMap({ Int($0) }) { scanLines = n }
            else if arg == "--passes" { allSets = true }
            else { directory = arg }
        }
        guard let directory else {
            print("usage: crate-bench barcodes DIR [--runs N] [--lines N] [--passes] (DIR from scripts/make-barcode-photos)")
            exit(64)
        }
        try benchBarcodes(directory, runs: runs, scanLines: scanLines, allSets: allSets)
    case "verdict":
        var runs = 9
        var plain = "Tests/Fixtures/images/photos/cover-01-12mp.jpg"
        var photo: String?
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg == "--runs", let n = rest.popFirst().flatMap({ Int($0) }) { runs = n }
            else if arg == "--plain", let path = rest.popFirst() { plain = path }
            else { photo = arg }
        }
        guard let photo else {
            print("usage: crate-bench verdict BARCODE_PHOTO [--runs N] [--plain PHOTO] (a 12 MP photo from scripts/make-barcode-photos)")
            exit(64)
        }
        try await benchVerdict(barcodePhoto: photo, plainPhoto: plain, runs: runs, fixtures: "Tests/Fixtures/images")
    case "lossy-gap":
        try await benchLossyGap(formats: ToneAlbum.Format.parse(arguments.dropFirst()))
    case "replaygain":
        try await benchReplayGain()
    case "player":
        try await benchPlayer(runs: arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5)
    default:
        print("usage: crate-bench image PHOTO... [--runs N] | crate-bench calibrate FIXTURES_DIR | crate-bench tier0-classes DIR [--fixtures FIXTURES_DIR] [--verbose] | crate-bench tier0 [--albums N] [--runs N] | crate-bench library DATA_DIR | crate-bench music-index [--files N] [--runs N] | crate-bench tags [N] | crate-bench gap [RUNS] | crate-bench lossy-gap [FORMAT...] | crate-bench replaygain | crate-bench player [RUNS] | crate-bench wall [--runs N] [--latency S] | crate-bench artist [--runs N] [--count N] | crate-bench barcodes DIR [--runs N] [--lines N] [--passes] | crate-bench verdict BARCODE_PHOTO [--runs N] [--plain PHOTO]")
        exit(64)
    }
} catch let error as ImageError {
    print("error: \(error.message)")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
