import Foundation

/// Reads Discogs' CSV export (Collection → Export, Wantlist → Export): RFC 4180 quoting (commas,
/// quotes and newlines inside quoted fields), a UTF-8 byte-order mark, CRLF line ends. The file is
/// checked whole before anything is staged, so a bad file imports nothing.
public enum DiscogsCSVReader {
    /// The export's header: `Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,
    /// CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes`.
    /// A wantlist export has the first eight and `Notes`.
    static let required = ["Catalog#", "Artist", "Title", "Label", "Format", "release_id"]
    public static let maxRows = 200_000
    public static let maxBytes = 128 << 20

    public static func read(file: URL) throws -> [DiscogsImportItem] {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            if size > maxBytes { throw DiscogsImportError.tooLarge(bytes: size) }
            data = try Data(contentsOf: file)
        } catch let error as DiscogsImportError {
            throw error
        } catch {
            throw DiscogsImportError.unreadable(path: file.path, reason: (error as NSError).localizedDescription)
        }
        return try read(data)
    }

    public static func read(_ data: Data) throws -> [DiscogsImportItem] {
        if data.count > maxBytes { throw DiscogsImportError.tooLarge(bytes: data.count) }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw DiscogsImportError.empty }
        guard !bytes.contains(0), let text = String(data: bytes, encoding: .utf8) else { throw DiscogsImportError.notText }
        let rows = try parse(text)
        guard let header = rows.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces) }) else { throw DiscogsImportError.empty }
        let missing = required.filter { !header.contains($0) }
        if !missing.isEmpty { throw DiscogsImportError.wrongHeader(missing: missing) }
        let records = rows.dropFirst().filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
        if records.isEmpty { throw DiscogsImportError.noRecords }
        if records.count > maxRows { throw DiscogsImportError.tooManyRows(limit: maxRows) }
        var column: [String: Int] = [:]
        for (index, name) in header.enumerated() where column[name] == nil { column[name] = index }
        let list: DiscogsList = column["CollectionFolder"] != nil || column["Collection Media Condition"] != nil ? .collection : .wantlist
        var items: [DiscogsImportItem] = []
        items.reserveCapacity(records.count)
        var badLines: [Int] = [], badValue = ""
        var copies: [Int: Int] = [:]
        let dates = dateFormatter()
        for row in records {
            func field(_ name: String) -> String? {
                guard let index = column[name], index < row.fields.count else { return nil }
                let value = row.fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
                return value.isEmpty ? nil : value
            }
            guard let text = field("release_id"), let releaseID = Int(text), releaseID > 0 else {
                if badLines.isEmpty { badValue = field("release_id") ?? "" }
                if badLines.count < 5 { badLines.append(row.line) }
                continue
            }
            // The export lists each copy (instance) on its own row: the n-th row of a release is its n-th copy.
            let copy = (copies[releaseID] ?? 0) + 1
            copies[releaseID] = copy
            let note = DiscogsImportItem.note(media: field("Collection Media Condition"), sleeve: field("Collection Sleeve Condition"),
                                              rating: field("Rating"), folder: field("CollectionFolder"),
                                              notes: field("Collection Notes") ?? field("Notes"))
            items.append(DiscogsImportItem(list: list, releaseID: releaseID, copyIndex: list == .wantlist ? 1 : copy,
                                           artist: field("Artist") ?? "", title: field("Title") ?? "", label: field("Label"),
                                           catalogNumber: DiscogsImportItem.firstCatalogNumber(field("Catalog#")), format: field("Format"),
                                           year: DiscogsImportItem.year(field("Released")), note: note, addedAt: field("Date Added").flatMap(dates.date(from:))))
        }
        if !badLines.isEmpty { throw DiscogsImportError.badReleaseID(lines: badLines, value: badValue) }
        // A wantlist names a release once; a repeated row adds nothing.
        if list == .wantlist {
            var seen = Set<Int>()
            items = items.filter { seen.insert($0.releaseID).inserted }
        }
        return items
    }

    /// One CSV record and the line it starts on (1-based).
    struct Row {
        var fields: [String]
        var line: Int
    }

    /// RFC 4180: fields split on commas, a quoted field may hold commas, newlines and `""`.
    static func parse(_ text: String) throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var inQuotes = false, quoteLine = 0, line = 1, rowLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            rows.append(Row(fields: fields, line: rowLine))
            fields = []
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.append("\"") } else { inQuotes = false; pending = next }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty:
                inQuotes = true
                quoteLine = line
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRow()
                line += 1
                rowLine = line
            case "\n":
                endRow()
                line += 1
                rowLine = line
            default:
                field.append(scalar)
            }
        }
        if inQuotes { throw DiscogsImportError.unterminatedQuote(line: quoteLine) }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
    }

    /// "2019-03-14 10:22:31" (the export's form, UTC).
    static func dateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }
}
