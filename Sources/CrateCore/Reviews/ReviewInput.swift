import Foundation

/// Why review input was refused before any provider call.
public enum ReviewInputError: Error, Equatable, Sendable {
    case emptyArtist
    case emptyTitle
    case fieldTooLong(field: String, limit: Int)
    case tooManyGenres(limit: Int)
    case invalidYear(String)

    public var message: String {
        switch self {
        case .emptyArtist: return L10n.tr("A review needs the artist's name.")
        case .emptyTitle: return L10n.tr("A review needs the album title.")
        case .fieldTooLong(let field, let limit): return L10n.tr("The %@ is longer than %@ characters.", field, limit)
        case .tooManyGenres(let limit): return L10n.tr("A review takes at most %@ genres.", limit)
        case .invalidYear(let year): return L10n.tr("\"%@\" is not a release year; use four digits (1977) or Unknown.", year)
        }
    }
}

/// The only thing a review prompt ever sees: validated, structured album metadata.
/// (The photo and any free text the user typed never reach the review prompt.)
public struct ReviewInput: Equatable, Sendable {
    public static let maxFieldLength = 200
    public static let maxGenres = 10
    public static let unknownYear = "Unknown"

    public let artist: String
    public let title: String
    /// Four digits, or "Unknown".
    public let year: String
    public let genres: [String]
    public let label: String?

    /// Validates and cleans the fields: control characters removed, whitespace collapsed, a date
    /// such as "1977-02-04" reduced to its year, empty genres and duplicates dropped.
    public init(artist: String, title: String, year: String? = nil, genres: [String] = [], label: String? = nil) throws {
        let artist = Self.clean(artist)
        let title = Self.clean(title)
        guard !artist.isEmpty else { throw ReviewInputError.emptyArtist }
        guard !title.isEmpty else { throw ReviewInputError.emptyTitle }
        try Self.checkLength(artist, "artist")
        try Self.checkLength(title, "title")

        var seen = Set<String>()
        var cleanGenres: [String] = []
        for genre in genres.map(Self.clean) where !genre.isEmpty && seen.insert(genre.lowercased()).inserted {
            try Self.checkLength(genre, "genre")
            cleanGenres.append(genre)
        }
        guard cleanGenres.count <= Self.maxGenres else { throw ReviewInputError.tooManyGenres(limit: Self.maxGenres) }

        let label = label.map(Self.clean).flatMap { $0.isEmpty ? nil : $0 }
        if let label { try Self.checkLength(label, "label") }

        self.artist = artist
        self.title = title
        self.year = try Self.normaliseYear(year)
        self.genres = cleanGenres
        self.label = label
    }

    /// From an album in the crate; genres beyond the limit are left out rather than refused.
    public init(album: Album) throws {
        try self.init(artist: album.artist, title: album.title, year: album.year, genres: Array(album.genres.prefix(Self.maxGenres)), label: album.label)
    }

    /// Year ≥ 2024 (newer than the models' training data) or unknown: a search helps.
    public var wantsSearchGrounding: Bool {
        guard let value = Int(year) else { return true }
        return value >= 2024
    }

    // MARK: - Private

    private static func clean(_ text: String) -> String {
        // Control characters (newlines included) become spaces so they cannot shape the prompt;
        // bidi overrides go too.
        let bidi: Set<UInt32> = [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || bidi.contains(scalar.value) {
                scalars.append(" ")
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func checkLength(_ value: String, _ field: String) throws {
        if value.count > maxFieldLength { throw ReviewInputError.fieldTooLong(field: field, limit: maxFieldLength) }
    }

    private static func normaliseYear(_ raw: String?) throws -> String {
        let value = clean(raw ?? "")
        if value.isEmpty || value.lowercased() == "unknown" { return unknownYear }
        guard value.range(of: #"^\d{4}(-\d{2}(-\d{2})?)?$"#, options: .regularExpression) != nil else {
            throw ReviewInputError.invalidYear(String(value.prefix(40)))
        }
        return String(value.prefix(4))
    }
}

extension ReviewInputError: LocalizedError {
    public var errorDescription: String? { message }
}
