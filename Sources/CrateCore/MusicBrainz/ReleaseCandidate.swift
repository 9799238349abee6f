import Foundation

/// What Crate is looking for: the artist and title it read off a cover, maybe a year, and what
/// else the sleeve gave (identify-v2): label, catalogue number, barcode digits, format, tracks.
/// The extra hints only add searches and raise matching candidates; they never lower one.
public struct ReleaseQuery: Equatable, Sendable {
    public var title: String
    public var artist: String
    public var year: String?
    public var label: String?
    public var catalogNumber: String?
    /// Digits as read; used only when `Barcode(typed:)` accepts them (check digit, not a book).
    public var barcode: String?
    public var format: String?
    public var trackTitles: [String]

    public init(title: String, artist: String, year: String? = nil, label: String? = nil, catalogNumber: String? = nil,
                barcode: String? = nil, format: String? = nil, trackTitles: [String] = []) {
        self.title = title
        self.artist = artist
        self.year = year
        self.label = label
        self.catalogNumber = catalogNumber
        self.barcode = barcode
        self.format = format
        self.trackTitles = trackTitles
    }

    /// The barcode, if the digits read are a valid one.
    public var validBarcode: Barcode? {
        guard let barcode else { return nil }
        return try? Barcode(typed: barcode)
    }
}

/// One release from a MusicBrainz search, with Crate's own score.
public struct ReleaseCandidate: Equatable, Sendable {
    public var releaseID: MBID
    public var releaseGroupID: MBID?
    public var title: String
    /// The credited artist, joinphrases included.
    public var artist: String
    /// "", "1977" or "1977-06-29" as MusicBrainz sent it; nil when absent.
    public var date: String?
    public var status: String?
    public var primaryType: String?
    public var secondaryTypes: [String]
    public var country: String?
    public var label: String?
    /// MusicBrainz's own search score (0–100), when it sent one.
    public var searchScore: Int?
    /// Crate's similarity to the query, 0–1; set by `CandidateScorer`.
    public var score: Double
    /// Every label and catalogue number of the release (search results carry them).
    public var labels: [String] = []
    public var catalogNumbers: [String] = []
    public var barcode: String?
    /// Found through a recording whose title is one the sleeve listed.
    public var hasTrackFromSleeve = false

    public init(releaseID: MBID, releaseGroupID: MBID? = nil, title: String, artist: String, date: String? = nil, status: String? = nil, primaryType: String? = nil, secondaryTypes: [String] = [], country: String? = nil, label: String? = nil, searchScore: Int? = nil, score: Double = 0) {
        self.releaseID = releaseID
        self.releaseGroupID = releaseGroupID
        self.title = title
        self.artist = artist
        self.date = date
        self.status = status
        self.primaryType = primaryType
        self.secondaryTypes = secondaryTypes
        self.country = country
        self.label = label
        self.searchScore = searchScore
        self.score = score
    }

    /// The year part of `date`, if it has one.
    public var year: Int? {
        guard let date, date.count >= 4 else { return nil }
        return Int(date.prefix(4))
    }
}

/// The best release for a query, and the others in order, so the user can pick another.
public struct ReleaseMatch: Equatable, Sendable {
    public var best: ReleaseCandidate?
    public var runnersUp: [ReleaseCandidate]

    public init(ranked: [ReleaseCandidate], keep: Int = 5) {
        best = ranked.first
        runnersUp = Array(ranked.dropFirst().prefix(keep))
    }
}

extension ReleaseCandidate {
    /// Nil when the release's id is not an MBID (it could never be looked up or cached).
    init?(_ release: MBRelease) {
        guard let id = MBID(validating: release.id) else { return nil }
        self.init(
            releaseID: id,
            releaseGroupID: MBID(validating: release.releaseGroup?.id),
            title: release.title ?? "",
            artist: release.artistName,
            date: release.date.flatMap { $0.isEmpty ? nil : $0 },
            status: release.status,
            primaryType: release.releaseGroup?.primaryType,
            secondaryTypes: release.releaseGroup?.secondaryTypes ?? [],
            country: release.country,
            label: release.labelInfo.lazy.compactMap(\.labelName).first,
            searchScore: release.score
        )
        labels = release.labelInfo.compactMap(\.labelName)
        catalogNumbers = release.labelInfo.compactMap(\.catalogNumber)
        barcode = release.barcode.flatMap { $0.isEmpty ? nil : $0 }
    }
}
