import Foundation

/// A signal the wall was built without, and why (in words for the user).
public struct WallUnavailable: Equatable, Hashable, Sendable, Codable {
    public var signal: WallSignal
    public var reason: String

    public init(signal: WallSignal, reason: String) {
        self.signal = signal
        self.reason = reason
    }
}

/// One tile of a stored wall: the album and its cached art.
public struct WallTile: Equatable, Sendable {
    public var item: WallItem
    /// The cached art, relative to the artwork cache (see `ArtworkCache.url(forStoredPath:in:)`).
    public var artworkPath: String?
    public var artworkStatus: ArtworkStatus

    public init(item: WallItem, artworkPath: String? = nil, artworkStatus: ArtworkStatus = .pending) {
        self.item = item
        self.artworkPath = artworkPath
        self.artworkStatus = artworkStatus
    }
}

/// The last wall, as stored: shown at once on launch, also offline.
public struct StoredWall: Equatable, Sendable {
    public var dial: CrateDialPosition
    public var builtAt: Date?
    public var tiles: [WallTile]
    public var unavailable: [WallUnavailable]

    public init(dial: CrateDialPosition, builtAt: Date? = nil, tiles: [WallTile] = [], unavailable: [WallUnavailable] = []) {
        self.dial = dial
        self.builtAt = builtAt
        self.tiles = tiles
        self.unavailable = unavailable
    }
}

/// Heart or ✕ on an album. One per release group: a favourite is never also a dislike.
public enum AlbumRating: Int, Codable, Sendable {
    case favourite = 1
    case dislike = -1

    /// ListenBrainz recording feedback: love 1, hate -1.
    public var feedbackScore: Int { rawValue }

    /// "favourite", "dislike" or "none" (logs and test events).
    public static func describe(_ rating: AlbumRating?) -> String {
        switch rating {
        case .favourite: return "favourite"
        case .dislike: return "dislike"
        case nil: return "none"
        }
    }
}

/// The album a rating is about.
public struct RatedAlbum: Equatable, Sendable {
    public var releaseGroupID: MBID
    public var title: String
    public var artist: String
    public var releaseID: MBID?

    public init(releaseGroupID: MBID, title: String, artist: String, releaseID: MBID? = nil) {
        self.releaseGroupID = releaseGroupID
        self.title = title
        self.artist = artist
        self.releaseID = releaseID
    }
}

/// One row of the feedback outbox, as claimed by a sender.
public struct FeedbackItem: Equatable, Sendable {
    public var id: Int64
    public var releaseGroupID: MBID
    public var releaseID: MBID?
    /// 1 love, -1 hate, 0 remove.
    public var score: Int
    /// The album's recordings, once found.
    public var recordings: [MBID]?
    /// Recordings whose feedback ListenBrainz has already accepted.
    public var sent: Set<MBID>
    public var attempts: Int
}

/// What `crate feedback status` reports.
public struct FeedbackStatus: Equatable, Sendable {
    public var pending = 0
    public var sent = 0
    public var failed = 0
    public var superseded = 0
    /// The last failure's sentence, if the newest unsent row has one.
    public var lastError: String?
    /// When the next retry is due (pending rows waiting after a failure).
    public var nextAttemptAt: Date?

    public init() {}
}
