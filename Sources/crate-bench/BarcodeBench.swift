import CrateCore
import Foundation

/// `crate-bench barcodes DIR [--runs N]`: the barcode reader against photos made by
/// scripts/make-barcode-photos (DIR/manifest.json says what is in each). Prints the found rate and
/// wrong digits per class and per pass set, then the time added to a 12 MP scan (greyscale and
/// decode from the already-decoded image; the JPEG decode is the scan's own) next to `zbarimg
/// --raw -q` on the same photos, in the same run.
struct BarcodePhoto: Decodable {
    struct Truth: Decodable { let symbology: String; let digits: String }
    let file: String
    let `class`: String
    let size: String
    let barcodes: [Truth]
    let covered: [Truth]?
}

func benchBarcodes(_ directory: String, runs: Int, scanLines: Int, allSets: Bool) throws {
    let dir = URL(fileURLWithPath: directory)
    let photos = try JSONDecoder().decode([BarcodePhoto].self, from: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
    if let problem = BarcodeReader.unavailable { throw problem }
    var images: [String: RGBImage] = [:]
    for photo in photos { images[photo.file] = try BarcodeReader.decodePhoto(at: dir.appendingPathComponent(photo.file)) }

    func gtin(_ truth: BarcodePhoto.Truth) -> String? {
        BarcodeSymbology(rawValue: truth.symbology).flatMap { try? Barcode(digits: truth.digits, symbology: $0) }.map(\.gtin13)
    }

    // Found rate and wrong digits, per class, for growing sets of passes.
    let sets: [[BarcodeReader.Pass]] = allSets ? [[.full], [.full, .rotated], [.half, .rotated], [.full, .half], [.full, .half, .stretched],
                                                   BarcodeReader.Pass.allCases] : [BarcodeReader.standardPasses]
    for passes in sets {
        let reader = BarcodeReader(passes: passes, scanLines: scanLines)
        var rows: [String: (photos: Int, barcodes: Int, found: Int, wrong: Int, extra: Int)] = [:]
        var byPass: [BarcodeReader.Pass: Int] = [:]
        var misses: [String] = []
        for photo in photos {
            let readings = try reader.readings(images[photo.file]!)
            let expected = Set(photo.barcodes.compactMap(gtin))
            let allowed = expected.union((photo.covered ?? []).compactMap(gtin))
            let read = Set(readings.compactMap { $0.barcode?.gtin13 })
            for reading in readings { byPass[reading.pass, default: 0] += 1 }
            var row = rows[photo.class] ?? (0, 0, 0, 0, 0)
            row.photos += 1
            row.barcodes += expected.count
            row.found += expected.intersection(read).count
            row.wrong += read.subtracting(allowed).count
            rows[photo.class] = row
            // With several barcodes in frame, the first pass that finds any stops the search.
            if !expected.subtracting(read).isEmpty { misses.append("\(photo.file) (\(expected.subtracting(read).count) of \(expected.count))") }
        }
        print("\n### passes: \(passes.map(\.rawValue).joined(separator: " → ")) (\(scanLines) scan lines across the short side)\n")
        print("| class | photos | barcodes | found | wrong digits |")
        print("|---|---|---|---|---|")
        var total = (photos: 0, barcodes: 0, found: 0, wrong: 0)
        for (name, row) in rows.sorted(by: { $0.key < $1.key }) {
            print("| \(name) | \(row.photos) | \(row.barcodes) | \(row.found) | \(row.wrong) |")
            total = (total.photos + row.photos, total.barcodes + row.barcodes, total.found + row.found, total.wrong + row.wrong)
        }
        let rate = total.barcodes == 0 ? 0 : 100 * Double(total.found) / Double(total.barcodes)
        print("| all | \(total.photos) | \(total.barcodes) | \(total.found) (\(String(format: "%.1f", rate)) %) | \(total.wrong) |")
        if allSets, let none = photos.first(where: { $0.class == "none" && $0.size == "12mp" }) {
            let image = images[none.file]!
            let times = try (0..<runs).map { _ in try milliseconds { _ = try reader.readings(image) } }
            print("no-barcode 12 MP photo (every pass runs): median \(msText(median(times)))")
        }
        print("found by pass: " + byPass.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
        if !misses.isEmpty { print("missed: " + misses.joined(separator: ", ")) }
    }

    try benchAtScanScale(dir, photos: photos, scanLines: scanLines, gtin: gtin)

    // Time on 12 MP photos: one with a barcode found by the first pass, one found later, one without any.
    let reader = BarcodeReader(scanLines: scanLines)
    let big = photos.filter { $0.size == "12mp" }
    var picks: [(String, BarcodePhoto)] = []
    if let p = big.first(where: { $0.class == "clean" }) { picks.append(("barcode, first pass", p)) }
    if let p = big.first(where: { photo in
        guard let first = try? reader.readings(images[photo.file]!).first else { return false }
        return first.pass != .full
    }) { picks.append(("barcode, later pass", p)) }
    if let p = big.first(where: { $0.class == "none" }) { picks.append(("no barcode (all passes)", p)) }
    print("\n### time on a 12 MP photo (median of \(runs) runs; \(scanLines) scan lines)\n")
    print("| photo | greyscale | reader (greyscale + passes) | zbarimg --raw -q (whole process) | zbarimg start-up alone |")
    print("|---|---|---|---|---|")
    let startup = (0..<runs).compactMap { _ in runZbarimg(["--version"]) }
    for (label, photo) in picks {
        let image = images[photo.file]!
        _ = try reader.readings(image)
        var grey: [Double] = [], total: [Double] = [], zbar: [Double] = []
        // No passes: the greyscale conversion alone.
        let greyOnly = BarcodeReader(passes: [], scanLines: scanLines)
        for _ in 0..<runs { grey.append(try milliseconds { _ = try greyOnly.readings(image) }) }
        for _ in 0..<runs { total.append(try milliseconds { _ = try reader.readings(image) }) }
        let path = dir.appendingPathComponent(photo.file).path
        for _ in 0..<runs { if let t = runZbarimg(["--raw", "-q", path]) { zbar.append(t) } }
        print("| \(label): \(photo.file) | \(msText(median(grey))) | \(msText(median(total))) | \(msText(median(zbar))) | \(msText(median(startup))) |")
    }
}

private func msText(_ ms: Double) -> String { String(format: "%.1f ms", ms) }

/// `zbarimg` as a user would run it, whole process; nil when it is not installed.
private func runZbarimg(_ arguments: [String]) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        let t = try milliseconds {
            try process.run()
            process.waitUntilExit()
        }
        return t
    } catch {
        return nil
    }
}

/// What the scan itself finds: the reader on the luma the photo preparation keeps, i.e. the
/// DCT-scaled decode (a 12 MP photo at 1/2: 2000×1500; 1600×1200 at full size), per size, next to
/// the full-size decode above; and the reader's time on that luma.
private func benchAtScanScale(_ dir: URL, photos: [BarcodePhoto], scanLines: Int, gtin: (BarcodePhoto.Truth) -> String?) throws {
    let reader = BarcodeReader(scanLines: scanLines), preparer = ImagePreparer()
    var rows: [String: (barcodes: Int, full: Int, scan: Int, wrong: Int)] = [:]
    var misses: [String] = []
    var timeOn12MP: [String: [Double]] = [:]
    for photo in photos {
        let url = dir.appendingPathComponent(photo.file)
        let prepared = try preparer.preparePhoto(at: url, keepingLuma: true)
        let expected = Set(photo.barcodes.compactMap(gtin))
        let allowed = expected.union((photo.covered ?? []).compactMap(gtin))
        let atScan = Set(try reader.readings(prepared).compactMap { $0.barcode?.gtin13 })
        let atFull = Set(try reader.readings(try BarcodeReader.decodePhoto(at: url)).compactMap { $0.barcode?.gtin13 })
        var row = rows[photo.size] ?? (0, 0, 0, 0)
        row.barcodes += expected.count
        row.full += expected.intersection(atFull).count
        row.scan += expected.intersection(atScan).count
        row.wrong += atScan.subtracting(allowed).count
        rows[photo.size] = row
        if !expected.intersection(atFull).subtracting(atScan).isEmpty { misses.append("\(photo.file) (\(photo.class))") }
        if photo.size == "12mp", ["clean", "none"].contains(photo.class) {
            for _ in 0..<5 { timeOn12MP[photo.class, default: []].append(try milliseconds { _ = try reader.readings(prepared) }) }
        }
    }
    print("\n### as the scan reads it: the preparation's kept luma (DCT-scaled decode) against the full-size decode\n")
    print("| size | barcodes | found, full decode | found, scan's decode | wrong digits (scan) |")
    print("|---|---|---|---|---|")
    for (size, row) in rows.sorted(by: { $0.key < $1.key }) {
        print("| \(size) | \(row.barcodes) | \(row.full) | \(row.scan) | \(row.wrong) |")
    }
    if !misses.isEmpty { print("found at full size only: " + misses.joined(separator: ", ")) }
    for (kind, times) in timeOn12MP.sorted(by: { $0.key < $1.key }) {
        print("reader on a 12 MP photo's kept luma (\(kind)): median \(msText(median(times)))")
    }
}
