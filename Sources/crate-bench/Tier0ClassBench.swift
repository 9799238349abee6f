import CrateCore
import Foundation

/// `crate-bench tier0-classes DIR [--fixtures FIXTURES_DIR] [--verbose]`: tier 0 (shortlist +
/// verification + `TierZeroRule`, as the scan pipeline runs it) on the photos that
/// `scripts/make-tier0-classes DIR` made, with recall and false accepts per degradation class.
/// `CRATE_VERIFY=off` gives the hash alone (`LocalMatcher.standard`) for comparison,
/// `CRATE_VERIFY=standard` the cell verification `CoverVerifier.standard` (the default is the scan's,
/// `lightAware`, decision 0039).
func benchTier0Classes(_ dir: String, fixtures: String, verbose: Bool) throws {
    let library = try Tier0Library(fixtures: fixtures)
    let manifest = try String(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
    let verify = ProcessInfo.processInfo.environment["CRATE_VERIFY"] != "off"
    let dump = VerificationDump()
    var rows: [(name: String, row: ClassRow)] = []
    var seconds: [Double] = []
    for line in manifest.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count >= 3 else { continue }
        let expected = fields[2] == "-" ? nil : fields[2]
        let data = try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(fields[0]))
        var notes = ""
        var decision: String?
        var shortlisted: [String] = []
        let ms = try milliseconds {
            decision = try library.decide(data, verify: verify, notes: &notes, shortlisted: &shortlisted) { photo, shortlist in
                try dump?.add(set: "classes", file: fields[0], group: fields[1], expected: expected, photo: photo,
                              shortlist: shortlist, names: library.names, artwork: library.artwork, table: library.table)
            }
        }
        seconds.append(ms)
        if rows.last?.name != fields[1] { rows.append((fields[1], ClassRow())) }
        rows[rows.count - 1].row.add(expected: expected, decision: decision)
        if let expected, shortlisted.contains(expected) { rows[rows.count - 1].row.shortlisted += 1 }
        let ok = decision == expected
        if verbose || !ok {
            print("\(fields[0])\tdecision=\(decision ?? "nil")\(ok ? "" : "  <--")\(notes)")
        }
    }
    // "hash shortlisted": the photo's album was among the hash's nearest two, so the verification
    // had the chance to accept it; the rest are lost before the verification runs.
    print("\n| class | photos | hash shortlisted | found | wrong album | negatives | false accepts |")
    print("|---|---|---|---|---|---|---|")
    var total = ClassRow()
    for (name, row) in rows {
        print("| \(name) | \(row.known) | \(row.known == 0 ? "–" : "\(row.shortlisted)") | \(row.foundText) | \(row.wrong) | \(row.negatives) | \(row.falseAccepts) |")
        total.known += row.known
        total.shortlisted += row.shortlisted
        total.found += row.found
        total.wrong += row.wrong
        total.negatives += row.negatives
        total.falseAccepts += row.falseAccepts
    }
    print("| all | \(total.known) | \(total.shortlisted) | \(total.foundText) | \(total.wrong) | \(total.negatives) | \(total.falseAccepts) |")
    print("median prepare + match + verify per photo: \(String(format: "%.1f", median(seconds))) ms (fixture covers as the crate)")
}

/// One class's tally: photos of crate covers found, wrong albums, negatives answered.
struct ClassRow {
    var known = 0, shortlisted = 0, found = 0, wrong = 0, negatives = 0, falseAccepts = 0

    mutating func add(expected: String?, decision: String?) {
        if let expected {
            known += 1
            if decision == expected { found += 1 } else if decision != nil { wrong += 1 }
        } else {
            negatives += 1
            if decision != nil { falseAccepts += 1 }
        }
    }

    var foundText: String {
        known == 0 ? "–" : "\(found) (\(String(format: "%.0f", 100 * Double(found) / Double(known))) %)"
    }
}

/// The fixture covers as a crate: their hashes in a table and their artwork decoded, as the
/// scan pipeline keeps them.
struct Tier0Library {
    let preparer = benchPreparer()
    var table = CoverTable()
    var covers: [StoredCover] = []
    var names: [Int64: String] = [:]
    var artwork: [Int64: RGBImage] = [:]

    init(fixtures: String) throws {
        let root = URL(fileURLWithPath: fixtures).appendingPathComponent("covers")
        for (i, file) in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted().enumerated() {
            let prepared = try preparer.prepareArtwork(Data(contentsOf: root.appendingPathComponent(file)))
            covers.append(StoredCover(albumID: Int64(i), hash: prepared.hash))
            table.append(covers[i])
            names[Int64(i)] = String(file.dropLast(4))
            artwork[Int64(i)] = try JPEGCodec.decode(prepared.large).0
        }
    }

    /// Tier 0's answer for one photo (a cover name or nil); `notes` gets each check's figures.
    let verifier = ProcessInfo.processInfo.environment["CRATE_VERIFY"] == "standard" ? CoverVerifier.standard : .lightAware

    func decide(_ data: Data, verify: Bool, notes: inout String, shortlisted: inout [String],
                inspect: (PreparedPhoto, [LocalMatch]) throws -> Void = { _, _ in }) throws -> String? {
        let photo = try preparer.preparePhoto(data)
        let shortlist = LocalMatcher.shortlist.shortlist(photo.hashes, in: table)
        try inspect(photo, shortlist)
        shortlisted = shortlist.map { names[$0.albumID]! }
        guard verify else {
            return LocalMatcher.standard.match(photo.hashes, among: covers).map { names[$0.albumID]! }
        }
        var log = ""
        let chosen = try TierZeroRule.decide(shortlist) { hit in
            let check = try verifier.check(photo, against: artwork[hit.albumID]!, coverHash: table.hash(of: hit.albumID)!)
            log += String(format: "\t%@@%d:%@ ecc=%.2f vis=%.2f agr=%.2f occ=%.2f content=%d", names[hit.albumID]!,
                          hit.distance, "\(check.outcome)", check.correlation, check.visible, check.agreement,
                          check.occluded, check.content)
            return check
        }
        // The nearest four by hash, shortlisted or not: how far a lost album was.
        let nearest = LocalMatcher.shortlist.ranked(photo.hashes, among: covers).prefix(4)
            .map { "\(names[$0.albumID]!)@\($0.distance)" }.joined(separator: " ")
        notes = (log.isEmpty ? "\tshortlist empty" : log) + "\tnearest: " + nearest
        return chosen.map { names[$0.albumID]! }
    }
}
