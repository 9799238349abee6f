import Foundation
import GRDB

/// One line of an export: an owned copy, or a wanted album.
public struct CollectionExportRow: Equatable, Sendable {
    public enum State: String, Sendable { case owned, wanted }

    public var artist: String
    public var title: String
    public var year: String?
    public var format: String?
    public var label: String?
    public var catalogNumber: String?
    public var barcode: String?
    public var musicBrainzReleaseID: String?
    public var discogsReleaseID: Int64?
    public var state: State
    public var note: String?
    public var addedAt: Date?
}

/// What the crate's collection looks like as a CSV file: Crate's own columns (every owned copy,
/// every wanted album), or the columns of Discogs' collection export, which Discogs' import reads
/// (owned copies whose Discogs release is known). Release facts only: no condition grading,
/// no prices, ever.
public enum CollectionExport {
    public static let header = ["artist", "title", "year", "format", "label", "catalog_number", "barcode",
                                "musicbrainz_release_id", "discogs_release_id", "state", "note"]
    public static let discogsHeader = ["Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id",
                                       "CollectionFolder", "Date Added", "Collection Media Condition", "Collection Sleeve Condition",
                                       "Collection Notes"]

    /// The rows, by artist then title: each owned copy, then each wanted album that is not owned.
    public static func rows(in db: Database) throws -> [CollectionExportRow] {
        let owned = try Row.fetchAll(db, sql: """
            SELECT a.artist, a.title, a.year, a.label, a.mbReleaseId, c.format, c.releaseId AS copyRelease, c.note, c.addedAt,
                   f.barcode, f.catalogNumbers, f.labels, f.media, d.releaseId AS discogsId, 'owned' AS state
            FROM album_copy c JOIN album a ON a.id = c.albumId
            LEFT JOIN release_facts f ON f.albumId = a.id
            LEFT JOIN discogs_link d ON d.albumId = a.id AND d.status = 'linked'
            UNION ALL
            SELECT a.artist, a.title, a.year, a.label, a.mbReleaseId, NULL, NULL, NULL, a.wantedAt,
                   f.barcode, f.catalogNumbers, f.labels, f.media, d.releaseId, 'wanted'
            FROM album a
            LEFT JOIN release_facts f ON f.albumId = a.id
            LEFT JOIN discogs_link d ON d.albumId = a.id AND d.status = 'linked'
            WHERE a.wantedAt IS NOT NULL AND NOT EXISTS (SELECT 1 FROM album_copy c WHERE c.albumId = a.id)
            ORDER BY 1 COLLATE NOCASE, 2 COLLATE NOCASE, 15
            """)
        return owned.map { row in
            let strings = { (column: String) -> [String] in
                (row[column] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            }
            let media = (row["media"] as String?).flatMap { try? JSONDecoder().decode([ReleaseMedium].self, from: Data($0.utf8)) } ?? []
            let copyRelease: String? = row["copyRelease"]
            let albumRelease: String? = row["mbReleaseId"]
            let format: String? = row["format"]
            return CollectionExportRow(
                artist: row["artist"], title: row["title"], year: row["year"],
                format: format ?? ReleaseFacts(media: media).formatSummary,
                label: strings("labels").first ?? row["label"], catalogNumber: strings("catalogNumbers").first,
                barcode: row["barcode"], musicBrainzReleaseID: copyRelease ?? albumRelease, discogsReleaseID: row["discogsId"],
                state: CollectionExportRow.State(rawValue: row["state"]) ?? .owned, note: row["note"], addedAt: row["addedAt"])
        }
    }

    /// Crate's own CSV (RFC 4180, a header line, CRLF line ends).
    public static func csv(_ rows: [CollectionExportRow]) -> String {
        let lines = rows.map { row in
            [row.artist, row.title, row.year, row.format, row.label, row.catalogNumber, row.barcode, row.musicBrainzReleaseID,
             row.discogsReleaseID.map(String.init), row.state.rawValue, row.note].map { field($0) }
        }
        return ([header] + lines).map { $0.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// Discogs' columns, for owned copies with a Discogs release; `skipped` counts the copies
    /// without one (Discogs' import needs the release id).
    public static func discogsCSV(_ rows: [CollectionExportRow]) -> (text: String, written: Int, skipped: Int) {
        let owned = rows.filter { $0.state == .owned }
        let known = owned.filter { $0.discogsReleaseID != nil }
        let dateFormat = DateFormatter()
        dateFormat.locale = Locale(identifier: "en_US_POSIX")
        dateFormat.timeZone = TimeZone(identifier: "UTC")
        dateFormat.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let lines = known.map { row in
            [row.catalogNumber, row.artist, row.title, row.label, discogsFormat(row.format), nil, row.year,
             row.discogsReleaseID.map(String.init), "Uncategorized", row.addedAt.map(dateFormat.string(from:)), nil, nil, row.note].map { field($0) }
        }
        let text = ([discogsHeader] + lines).map { $0.joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        return (text, known.count, owned.count - known.count)
    }

    /// Writes `text` to `url` whole or not at all (a temporary file beside it, then renamed).
    public static func write(_ text: String, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).crate-\(UUID().uuidString.prefix(8))")
        do {
            try Data(text.utf8).write(to: temporary, options: .withoutOverwriting)
            // rename(2) replaces the old file in one step.
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CrateError.writing(error, in: directory.path)
        }
    }

    /// Discogs' short names for the common formats ("LP", "CD"); others as MusicBrainz says them.
    static func discogsFormat(_ format: String?) -> String? {
        guard let format else { return nil }
        let known = ["12\" Vinyl": "LP", "7\" Vinyl": "7\"", "10\" Vinyl": "10\"", "Vinyl": "Vinyl", "CD": "CD", "Cassette": "Cass",
                     "Digital Media": "File", "SACD": "SACD", "DVD": "DVD", "Blu-ray": "Blu-ray"]
        return format.components(separatedBy: " + ").map { part -> String in
            if let times = part.firstIndex(of: "×"), let count = Int(part[..<times]) {
                let name = String(part[part.index(after: times)...])
                return "\(count)x\(known[name] ?? name)"
            }
            return known[part] ?? part
        }.joined(separator: ", ")
    }

    /// One CSV field: quoted when it holds a comma, quote or line break; a leading `=`, `+`, `@`
    /// or tab is prefixed with `'` so no spreadsheet runs it as a formula.
    static func field(_ value: String?) -> String {
        guard var text = value, !text.isEmpty else { return "" }
        if let first = text.first, "=+@\t\r".contains(first) { text = "'" + text }
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
