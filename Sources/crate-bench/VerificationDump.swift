import CrateCore
import Foundation

/// `CRATE_VERIFY_DUMP=DIR` (with `calibrate` or `tier0-classes`): every check tier 0 could run —
/// each shortlisted album of each photo, with the square and outline it would start from — is
/// written to DIR (`photos/*.ppm`, `covers/*.ppm`, `checks.tsv`), so the verification can be tuned
/// on exactly these inputs by a C++ driver without preparing the photos again (decision 0039).
final class VerificationDump {
    let root: URL
    private var coversWritten: Set<String> = []
    private var photoCount = 0

    init?() {
        guard let dir = ProcessInfo.processInfo.environment["CRATE_VERIFY_DUMP"] else { return nil }
        root = URL(fileURLWithPath: dir)
        let fm = FileManager.default
        try? fm.createDirectory(at: root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try? fm.createDirectory(at: root.appendingPathComponent("covers"), withIntermediateDirectories: true)
        if !fm.fileExists(atPath: root.appendingPathComponent("checks.tsv").path) {
            fm.createFile(atPath: root.appendingPathComponent("checks.tsv").path, contents: nil)
        }
    }

    /// One photo's shortlist: a line per shortlisted album (set, photo, class, expected, rank,
    /// candidate, distance, passes the hash's strict gate, square corners, outline corners or "-",
    /// then the surround's file and the same two in its pixels, or "-" when it is the square itself).
    func add(set: String, file: String, group: String, expected: String?, photo: PreparedPhoto,
                      shortlist: [LocalMatch], names: [Int64: String], artwork: [Int64: RGBImage],
                      table: CoverTable) throws {
        photoCount += 1
        let id = "\(set)-\(photoCount)"
        try Self.ppm(photo.visionImage).write(to: root.appendingPathComponent("photos/\(id).ppm"))
        let surround = photo.surround.width > photo.visionSide || photo.surround.height > photo.visionSide
        if surround { try Self.ppm(photo.surround).write(to: root.appendingPathComponent("photos/\(id)-surround.ppm")) }
        let side = Double(photo.visionSide)
        var lines = ""
        for (rank, hit) in shortlist.enumerated() {
            let name = names[hit.albumID]!
            if !coversWritten.contains(name) {
                try Self.ppm(artwork[hit.albumID]!).write(to: root.appendingPathComponent("covers/\(name).ppm"))
                coversWritten.insert(name)
            }
            let hash = table.hash(of: hit.albumID)!
            let square = photo.hashes.nearestSquare(to: hash).map { CropOutline(square: $0) }
            let start = photo.hashes.nearestStart(to: hash)
            func corners(_ o: CropOutline?) -> String {
                o.map { $0.points.map { String(format: "%.3f", $0 * side) }.joined(separator: ",") } ?? "-"
            }
            func surroundCorners(_ o: CropOutline?) -> String {
                guard surround, let o else { return "-" }
                return photo.surroundCorners(o).map { String(format: "%.3f", $0) }.joined(separator: ",")
            }
            let strict = hit.passes(LocalMatcher.standard)
            let outline = start == square ? nil : start
            lines += [set, file, group, expected ?? "-", "\(id).ppm", "\(rank)", name, "\(hit.distance)", strict ? "1" : "0",
                      corners(square), corners(outline), surround ? "\(id)-surround.ppm" : "-",
                      surroundCorners(square), surroundCorners(outline)].joined(separator: "\t") + "\n"
        }
        if shortlist.isEmpty {
            lines += [set, file, group, expected ?? "-", "\(id).ppm", "-", "-", "-", "0", "-", "-", "-", "-", "-"]
                .joined(separator: "\t") + "\n"
        }
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent("checks.tsv"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.utf8))
        try handle.close()
    }

    static func ppm(_ image: RGBImage) -> Data {
        let rgb = image.channels == 3 ? image.pixels : image.pixels.flatMap { [$0, $0, $0] }
        return Data("P6\n\(image.width) \(image.height)\n255\n".utf8) + Data(rgb)
    }
}
