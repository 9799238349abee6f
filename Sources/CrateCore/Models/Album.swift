import Foundation

/// Whether an album's artwork is on disk, known to be missing, or still to fetch.
public enum ArtworkStatus: String, Codable, Sendable {
    case pending
    case available
    /// The Cover Art Archive has no art for this release ("Album art unavailable"); retried later.
    case unavailable
    case failed
}

/// One album in the crate. Every scan points at one.
public struct Album: Identifiable, Equatable, Sendable, Codable {
    public var id: Int64?
    public var musicBrainzReleaseID: String?
    public var musicBrainzReleaseGroupID: String?
    public var title: String
    public var artist: String
    /// Article-stripped, case-folded artist name: "The Beatles" sorts as "beatles".
    public var artistSortKey: String
    public var year: String?
    public var genres: [String]
    public var label: String?
    public var artworkStatus: ArtworkStatus
    public var artworkPath: String?
    public var thumbnailPath: String?
    /// Whether the track list is here, still to fetch, or given up on (see `TrackListStatus`).
    public var tracksStatus: TrackListStatus
    public var createdAt: Date

    public init(
        id: Int64? = nil,
        musicBrainzReleaseID: String? = nil,
        musicBrainzReleaseGroupID: String? = nil,
        title: String,
        artist: String,
        year: String? = nil,
        genres: [String] = [],
        label: String? = nil,
        artworkStatus: ArtworkStatus = .pending,
        artworkPath: String? = nil,
        thumbnailPath: String? = nil,
        tracksStatus: TrackListStatus = .pending,
        createdAt: Date = Date(),
        artistSortKey: String? = nil
    ) {
        self.id = id
        self.musicBrainzReleaseID = musicBrainzReleaseID
        self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
        self.title = title
        self.artist = artist
        // Folding is costly; rows read back from the database pass their stored key.
        self.artistSortKey = artistSortKey ?? SortKey.artist(artist)
        self.year = year
        self.genres = genres
        self.label = label
        self.artworkStatus = artworkStatus
        self.artworkPath = artworkPath
        self.thumbnailPath = thumbnailPath
        self.tracksStatus = tracksStatus
        self.createdAt = createdAt
    }
}

/// Sort keys shared by the grid, the CLI and playlists.
public enum SortKey {
    private static let articles = ["the ", "a ", "an "]

    /// "The Beatles" → "beatles"; keeps the name when it is only an article ("The The" → "the").
    public static func artist(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for article in articles where folded.hasPrefix(article) {
            let rest = folded.dropFirst(article.count).trimmingCharacters(in: .whitespaces)
            if !rest.isEmpty { return rest }
        }
        return folded
    }
}
