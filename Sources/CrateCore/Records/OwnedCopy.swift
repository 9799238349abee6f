import Foundation

/// One copy of an album the user owns: on a format, maybe of an exact release, with a note.
public struct OwnedCopy: Identifiable, Equatable, Sendable, Codable {
    public var id: Int64?
    public var albumID: Int64
    /// "12\" Vinyl", "CD", "Cassette"; nil when the user did not say and the release is unknown.
    public var format: String?
    /// The MusicBrainz release this copy is, when known.
    public var releaseID: String?
    public var note: String?
    public var addedAt: Date

    public init(id: Int64? = nil, albumID: Int64, format: String? = nil, releaseID: String? = nil, note: String? = nil, addedAt: Date = Date()) {
        self.id = id
        self.albumID = albumID
        self.format = format
        self.releaseID = releaseID
        self.note = note
        self.addedAt = addedAt
    }
}

/// Where an album stands in the user's collection. Every album in the crate is *seen*.
public struct CollectionState: Equatable, Sendable {
    public var copies: [OwnedCopy]
    public var wantedAt: Date?

    public init(copies: [OwnedCopy] = [], wantedAt: Date? = nil) {
        self.copies = copies
        self.wantedAt = wantedAt
    }

    public var isOwned: Bool { !copies.isEmpty }
    public var isWanted: Bool { wantedAt != nil }
}

/// The crate's collection filter: every album (all are seen), the owned ones, the wanted ones.
public enum CollectionFilter: String, CaseIterable, Sendable, Codable {
    case seen
    case owned
    case wanted
}

/// How many albums each filter shows.
public struct CollectionCounts: Equatable, Sendable {
    public var seen: Int
    public var owned: Int
    public var wanted: Int

    public init(seen: Int = 0, owned: Int = 0, wanted: Int = 0) {
        self.seen = seen
        self.owned = owned
        self.wanted = wanted
    }

    public subscript(filter: CollectionFilter) -> Int {
        switch filter {
        case .seen: return seen
        case .owned: return owned
        case .wanted: return wanted
        }
    }
}
