import Foundation

/// "Tell Crate what it is": what the user says a record is, when a scan found nothing or the
/// wrong album. Artist and title are needed; year, label and catalogue number narrow the search.
public struct ManualIdentification: Equatable, Sendable {
    public let artist: String
    public let title: String
    public let year: String?
    public let label: String?
    public let catalogNumber: String?

    /// Trims every field (an empty optional one is none). Throws when artist or title is missing,
    /// or the year is not a year.
    public init(artist: String, title: String, year: String? = nil, label: String? = nil, catalogNumber: String? = nil) throws(ManualIdentificationError) {
        func clean(_ text: String?) -> String? {
            let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return trimmed.isEmpty ? nil : String(trimmed.prefix(200))
        }
        guard let artist = clean(artist) else { throw .missingArtist }
        guard let title = clean(title) else { throw .missingTitle }
        let year = clean(year)
        if let year, !(year.count == 4 && year.allSatisfy(\.isASCIIDigit) && ("1860"..."2100").contains(year)) {
            throw .invalidYear(year)
        }
        self.artist = artist
        self.title = title
        self.year = year
        self.label = clean(label)
        self.catalogNumber = clean(catalogNumber)
    }

    /// The MusicBrainz search it stands for (catalogue number first when there is one).
    var releaseQuery: ReleaseQuery {
        ReleaseQuery(title: title, artist: artist, year: year, label: label, catalogNumber: catalogNumber)
    }
}

public enum ManualIdentificationError: Error, Equatable, Sendable {
    case missingArtist
    case missingTitle
    case invalidYear(String)
    /// Nothing to search with: Crate runs offline.
    case offline

    public var message: String {
        switch self {
        case .missingArtist: return L10n.tr("Say who the artist is.")
        case .missingTitle: return L10n.tr("Say what the album is called.")
        case .invalidYear(let text): return L10n.tr("“%@” is not a year: give four digits, such as 1977, or leave it empty.", String(text.prefix(20)))
        case .offline: return L10n.tr("Crate is offline: looking the album up needs MusicBrainz. Try again when you are online.")
        }
    }
}

extension ManualIdentificationError: LocalizedError {
    public var errorDescription: String? { message }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
