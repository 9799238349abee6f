import Foundation

/// Why an import could not start or go on. Nothing is half staged: a file is read and checked
/// whole before one transaction stages it.
public enum DiscogsImportError: Error, Equatable, Sendable {
    case unreadable(path: String, reason: String)
    case empty
    /// Not text: NUL bytes, or not UTF-8.
    case notText
    case tooLarge(bytes: Int)
    case tooManyRows(limit: Int)
    /// The first line is not a Discogs export header: the columns missing.
    case wrongHeader(missing: [String])
    /// A quoted field never closed.
    case unterminatedQuote(line: Int)
    /// `release_id` is not a positive number on these lines (the first few).
    case badReleaseID(lines: [Int], value: String)
    /// A header and no record.
    case noRecords
    /// Another Crate process (the window or a command) is importing; it goes on there.
    case importingElsewhere

    public var message: String {
        switch self {
        case .unreadable(let path, let reason): return L10n.tr("Crate could not read %@ (%@).", path, reason)
        case .empty: return L10n.tr("The file is empty: export your collection from Discogs (Collection → Export) and import that file.")
        case .notText: return L10n.tr("The file is not a CSV text file: export your collection from Discogs (Collection → Export) and import that file.")
        case .tooLarge(let bytes): return L10n.tr("The file is too large for a Discogs export (%@ MB).", String(bytes >> 20))
        case .tooManyRows(let limit): return L10n.tr("The file has more than %@ records; split it and import each part.", String(limit))
        case .wrongHeader(let missing):
            return L10n.tr("This is not a Discogs collection or wantlist export: the columns %@ are missing from its first line.", missing.joined(separator: ", "))
        case .unterminatedQuote(let line): return L10n.tr("The file is cut short: a quoted field opened on line %@ never closes.", String(line))
        case .badReleaseID(let lines, let value):
            return L10n.tr("release_id must be a Discogs release number, but it is “%@” on line %@. Nothing was imported.", String(value.prefix(40)),
                           lines.map(String.init).joined(separator: ", "))
        case .noRecords: return L10n.tr("The file has a header and no records: nothing to import.")
        case .importingElsewhere: return L10n.tr("Another Crate window or command is importing from Discogs; the import goes on there.")
        }
    }
}

extension DiscogsImportError: LocalizedError {
    public var errorDescription: String? { message }
}
