import Foundation

/// One pill of the genre bar: a super-genre or one of its subcategories, searched on MusicBrainz
/// by its genre names (checked against MusicBrainz's genre list) and any extra folksonomy tags.
public struct GenreEntry: Equatable, Sendable, Codable {
    /// A stable slug (`post-rock`): what `--sub` and saved state refer to.
    public let id: String
    /// The English name in the data file ("Post-Rock"): matched by `--sub`, the gettext id.
    public let name: String
    /// What the pill shows: `name` in the user's language.
    public var displayName: String { L10n.data(name, file: GenreTaxonomy.fileName) }
    /// MusicBrainz genre names (`/ws/2/genre/all`), lower case.
    public let musicBrainz: [String]
    /// Further MusicBrainz tags people use for it ("drum & bass", "dnb"); not genres.
    public let tags: [String]

    public init(id: String, name: String, musicBrainz: [String], tags: [String] = []) {
        self.id = id
        self.name = name
        self.musicBrainz = musicBrainz
        self.tags = tags
    }

    /// Every tag a search for this entry asks for: the genre names, then the extra tags.
    public var searchTags: [String] {
        var seen = Set<String>()
        return (musicBrainz + tags).filter { seen.insert($0).inserted }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, tags
        case musicBrainz = "musicbrainz"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        musicBrainz = try c.decode([String].self, forKey: .musicBrainz)
        tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
    }
}

/// A super-genre with its subcategories.
public struct Genre: Equatable, Sendable {
    public let entry: GenreEntry
    public let subcategories: [GenreEntry]

    public var id: String { entry.id }
    public var name: String { entry.name }
    public var displayName: String { entry.displayName }

    public init(entry: GenreEntry, subcategories: [GenreEntry]) {
        self.entry = entry
        self.subcategories = subcategories
    }

    /// The subcategory whose id or name is `text` (case and spacing ignored).
    public func subcategory(named text: String) -> GenreEntry? {
        let key = GenreTaxonomy.key(text)
        return subcategories.first { GenreTaxonomy.key($0.id) == key || GenreTaxonomy.key($0.name) == key }
    }
}

/// The genre bar's taxonomy, read from `data/genres.json` and validated as it is read: a
/// malformed file is an error naming the entry, never a half-built bar.
public struct GenreTaxonomy: Equatable, Sendable {
    public static let fileName = "genres.json"
    public static let supportedFormat = 1

    public let genres: [Genre]

    /// Validates `genres` (the same rules as a file).
    public init(genres: [Genre]) throws {
        try Self.validate(genres)
        self.genres = genres
    }

    /// The genre whose id or name is `text` (case and spacing ignored).
    public func genre(named text: String) -> Genre? {
        let key = Self.key(text)
        return genres.first { Self.key($0.id) == key || Self.key($0.name) == key }
    }

    /// The subcategory whose id or name is `text`, with its genre: an id first (ids are unique),
    /// else the first name in file order.
    public func subcategory(named text: String) -> (genre: Genre, entry: GenreEntry)? {
        let key = Self.key(text)
        for genre in genres {
            if let entry = genre.subcategories.first(where: { Self.key($0.id) == key }) { return (genre, entry) }
        }
        for genre in genres {
            if let entry = genre.subcategories.first(where: { Self.key($0.name) == key }) { return (genre, entry) }
        }
        return nil
    }

    /// Every entry, super-genres and subcategories, in file order.
    public var allEntries: [GenreEntry] {
        genres.flatMap { [$0.entry] + $0.subcategories }
    }

    /// Every MusicBrainz genre name the taxonomy maps to.
    public var musicBrainzNames: Set<String> {
        Set(allEntries.flatMap(\.musicBrainz))
    }
}

// MARK: - Reading the file

extension GenreTaxonomy {
    /// Reads the data file from the standard places (`DataFiles`).
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GenreTaxonomy {
        guard let url = DataFiles.url(for: fileName, environment: environment) else {
            throw GenreTaxonomyError.notFound
        }
        return try load(from: url)
    }

    public static func load(from url: URL) throws -> GenreTaxonomy {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw GenreTaxonomyError.unreadable(url.path)
        }
        return try decode(data)
    }

    public static func decode(_ data: Data) throws -> GenreTaxonomy {
        struct File: Decodable {
            struct Item: Decodable {
                let entry: GenreEntry
                let subcategories: [GenreEntry]

                enum Keys: String, CodingKey { case subcategories }

                init(from decoder: Decoder) throws {
                    entry = try GenreEntry(from: decoder)
                    subcategories = try decoder.container(keyedBy: Keys.self).decodeIfPresent([GenreEntry].self, forKey: .subcategories) ?? []
                }
            }
            let format: Int
            let genres: [Item]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw GenreTaxonomyError.invalid(Self.describe(error))
        }
        guard file.format == supportedFormat else {
            throw GenreTaxonomyError.invalid("format \(file.format) is not one this Crate reads (\(supportedFormat))")
        }
        return try GenreTaxonomy(genres: file.genres.map { Genre(entry: $0.entry, subcategories: $0.subcategories) })
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: return "not valid JSON"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "unexpected value at \(path(context.codingPath))"
        default: return "unreadable"
        }
    }

    private static func path(_ keys: [CodingKey]) -> String {
        let parts = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return parts.isEmpty ? "the top" : String(parts.drop(while: { $0 == "." }))
    }
}

// MARK: - Validation

extension GenreTaxonomy {
    static func validate(_ genres: [Genre]) throws {
        guard !genres.isEmpty else { throw GenreTaxonomyError.invalid("no genres") }
        var ids = Set<String>()
        for genre in genres {
            try validate(genre.entry, ids: &ids)
            guard !genre.subcategories.isEmpty else {
                throw GenreTaxonomyError.invalid("genre \"\(genre.id)\" has no subcategories")
            }
            var names = Set<String>()
            for sub in genre.subcategories {
                try validate(sub, ids: &ids)
                guard names.insert(key(sub.name)).inserted else {
                    throw GenreTaxonomyError.invalid("genre \"\(genre.id)\" has two subcategories named \"\(sub.name)\"")
                }
            }
        }
    }

    private static func validate(_ entry: GenreEntry, ids: inout Set<String>) throws {
        let slug = entry.id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard !entry.id.isEmpty, slug, entry.id.count <= 40 else {
            throw GenreTaxonomyError.invalid("id \"\(entry.id)\" is not a slug (a-z, 0-9, -)")
        }
        guard ids.insert(entry.id).inserted else {
            throw GenreTaxonomyError.invalid("id \"\(entry.id)\" is used twice")
        }
        guard isCleanLabel(entry.name) else {
            throw GenreTaxonomyError.invalid("\"\(entry.id)\" has an empty, over-long or unprintable name")
        }
        guard !entry.musicBrainz.isEmpty else {
            throw GenreTaxonomyError.invalid("\"\(entry.id)\" maps to no MusicBrainz genre")
        }
        for tag in entry.musicBrainz + entry.tags {
            // MusicBrainz stores tags and genres lower case, trimmed, single-spaced.
            guard isCleanLabel(tag), tag == tag.lowercased(), tag == tag.split(separator: " ").joined(separator: " ") else {
                throw GenreTaxonomyError.invalid("\"\(entry.id)\" has the tag \"\(tag)\", which is not a MusicBrainz tag name (lower case, single spaces)")
            }
        }
        guard Set(entry.searchTags).count == entry.musicBrainz.count + entry.tags.count else {
            throw GenreTaxonomyError.invalid("\"\(entry.id)\" lists a tag twice")
        }
    }

    private static func isCleanLabel(_ text: String) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty && text.count <= 60
            && !text.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
    }

    /// Case, spacing and hyphens ignored: "post rock", "Post-Rock" and "post-rock" match.
    static func key(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "_" }).joined(separator: "-")
    }
}
