import Foundation

/// An album as the grid shows it: the album and when it was last scanned.
public struct AlbumSummary: Identifiable, Equatable, Sendable {
    public var album: Album
    public var lastScannedAt: Date?
    public var scanCount: Int
    public var id: Int64 { album.id ?? -1 }

    public init(album: Album, lastScannedAt: Date?, scanCount: Int) {
        self.album = album
        self.lastScannedAt = lastScannedAt
        self.scanCount = scanCount
    }
}

/// How the crate grid is ordered.
public enum AlbumSort: String, CaseIterable, Sendable {
    case recentlyScanned = "recent"
    /// Article-stripped artist ("The Beatles" under B), then title.
    case artist
    case title
    /// Highest review rating first; albums without a review last.
    case rating
    /// Oldest release first; albums without a year last.
    case year

    public var label: String {
        switch self {
        case .recentlyScanned: return L10n.tr("Recently Scanned")
        case .artist: return L10n.tr("Artist")
        case .title: return L10n.tr("Title")
        case .rating: return L10n.tr("Rating")
        case .year: return L10n.tr("Year")
        }
    }
}
