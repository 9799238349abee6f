import Foundation

/// What Crate is looking for: the artist and title it read off a cover, maybe a year.
public struct ReleaseQuery: Equatable, Sendable {
    public var title: String
    public var artist: String
    public var year: String?

    public init(title: String, artist: String, year: String? = nil) {
        self.title = title
        self.artist = artist
        self.year = year
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
    }
}
