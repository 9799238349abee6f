import Foundation

/// One release group (an album, an EP, a live album…) of an artist's catalogue.
public struct ReleaseGroupEntry: Equatable, Sendable, Codable {
    public let id: MBID
    public let title: String
    /// "Album", "EP"; nil when MusicBrainz has none.
    public let primaryType: String?
    /// "Live", "Compilation", "Remix", "Soundtrack", "DJ-mix", "Demo", …
    public let secondaryTypes: [String]
    /// "1977", "1977-02" or "1977-02-04"; nil when MusicBrainz has no date (sent as "").
    public let firstReleaseDate: String?

    public init(id: MBID, title: String, primaryType: String?, secondaryTypes: [String], firstReleaseDate: String?) {
        self.id = id
        self.title = title
        self.primaryType = primaryType
        self.secondaryTypes = secondaryTypes
        self.firstReleaseDate = Self.validDate(firstReleaseDate)
    }

    public var year: String? { firstReleaseDate.map { String($0.prefix(4)) } }

    /// Where the catalogue shows it: studio albums, EPs, or — anything with a secondary type
    /// (live, compilation, remix, soundtrack…) — its own section.
    public var section: CatalogueSection {
        if !secondaryTypes.isEmpty { return .other }
        return primaryType?.caseInsensitiveCompare("EP") == .orderedSame ? .eps : .albums
    }

    /// The Cover Art Archive's 250 px front for the release group (it picks the release):
    /// `<base>/release-group/<id>/front-250`, which answers 307 to the image or 404.
    public func coverURL(base: URL) -> URL {
        base.appendingPathComponent("release-group").appendingPathComponent(id.rawValue).appendingPathComponent("front-250")
    }

    /// Oldest first by first release date, undated last; then by title, then id, so the order
    /// never depends on the order MusicBrainz happened to send.
    public static func oldestFirst(_ a: ReleaseGroupEntry, _ b: ReleaseGroupEntry) -> Bool {
        switch (a.firstReleaseDate, b.firstReleaseDate) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        let byTitle = a.title.localizedStandardCompare(b.title)
        if byTitle != .orderedSame { return byTitle == .orderedAscending }
        return a.id.rawValue < b.id.rawValue
    }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD` with digits; anything else is no date. "1977" sorts
    /// before "1977-02-04", which is right: the year-only date is the less precise same year.
    static func validDate(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        return text
    }
}

/// The sections of an artist page, in the order they are shown.
public enum CatalogueSection: String, CaseIterable, Sendable, Codable {
    case albums
    case eps
    /// Live albums, compilations, remixes, soundtracks and the like.
    case other

    public var title: String {
        switch self {
        case .albums: return "Albums"
        case .eps: return "EPs"
        case .other: return "Live, compilations and more"
        }
    }
}

/// An artist's albums and EPs as Crate knows them: from the cache, or just fetched.
public struct ArtistCatalogue: Equatable, Sendable {
    public let artistID: MBID
    /// Nil until a release group or a search names the artist.
    public let name: String?
    public let disambiguation: String?
    /// Oldest first (`ReleaseGroupEntry.oldestFirst`).
    public let releaseGroups: [ReleaseGroupEntry]
    /// How many release groups MusicBrainz said the artist has.
    public let total: Int
    /// False while pages are missing (a fetch was interrupted; the next one resumes).
    public let isComplete: Bool
    /// When the last complete fetch finished; nil if none has.
    public let fetchedAt: Date?

    public init(artistID: MBID, name: String?, disambiguation: String? = nil, releaseGroups: [ReleaseGroupEntry], total: Int, isComplete: Bool, fetchedAt: Date?) {
        self.artistID = artistID
        self.name = name
        self.disambiguation = disambiguation
        self.releaseGroups = releaseGroups.sorted(by: ReleaseGroupEntry.oldestFirst)
        self.total = total
        self.isComplete = isComplete
        self.fetchedAt = fetchedAt
    }

    /// The release groups of one section, oldest first.
    public func entries(in section: CatalogueSection) -> [ReleaseGroupEntry] {
        releaseGroups.filter { $0.section == section }
    }

    /// The sections that have something, in display order.
    public var sections: [(section: CatalogueSection, entries: [ReleaseGroupEntry])] {
        CatalogueSection.allCases.compactMap { section in
            let entries = entries(in: section)
            return entries.isEmpty ? nil : (section, entries)
        }
    }
}
